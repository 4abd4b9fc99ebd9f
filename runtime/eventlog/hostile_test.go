package eventlog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestMutatedLogs flips random bytes of valid logs: every result must be a
// clean read or an ErrCorrupt error, promptly, and never a panic (recovery
// is off, so a panic fails the test). Checksums are ignored, so that the
// mutations reach the parser, as a hostile file with valid checksums
// would (TestFlippedBytes checks that checksums catch them).
func TestMutatedLogs(t *testing.T) {
	recoverPanics, ignoreChecksums = false, true
	defer func() { recoverPanics, ignoreChecksums = true, false }()
	seeds := seedLogs(t)
	var names []string
	for n := range seeds {
		names = append(names, n)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		b := bytes.Clone(seeds[names[i%len(names)]])
		for n := rng.IntN(4) + 1; n > 0; n-- {
			b[rng.IntN(len(b))] = byte(rng.Uint32())
		}
		start := time.Now()
		err := readLimited(t, b)
		if err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("input %d: error does not wrap ErrCorrupt: %v", i, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("input %d took %v", i, d)
		}
	}
}

// TestTruncatedLogs cuts a log whose writer was killed (its status says
// open) at every length: a capture-time log yields a prefix of its events
// and reports the torn tail; it never fails once the schema is complete.
// (A closed log cut short is an error: TestTruncatedClosedLogs.)
func TestTruncatedLogs(t *testing.T) {
	full := asKilled(t, seedLogs(t)["zstd"])
	want, _ := readPrefix(t, full)
	if len(want) != 10 {
		t.Fatalf("seed log has %d events", len(want))
	}
	schemaEnd := int(8 + binary.LittleEndian.Uint32(full[4:]))
	for cut := 0; cut < len(full); cut++ {
		got, err := readPrefix(t, full[:cut])
		if cut < schemaEnd {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("cut at %d (inside the schema): err = %v", cut, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		for i, e := range got {
			if e != want[i] {
				t.Fatalf("cut at %d: event %d = %q, want %q", cut, i, e, want[i])
			}
		}
	}
}

// readPrefix returns a summary line per event and the error that stopped
// reading (nil at a clean or torn end).
func readPrefix(t *testing.T, b []byte) ([]string, error) {
	r, err := NewReader(bytes.NewReader(b), int64(len(b)), "cut")
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out []string
	for {
		e, err := r.Next()
		if err != nil {
			if err.Error() == "EOF" {
				return out, nil
			}
			return out, err
		}
		out = append(out, strings.Join([]string{e.Kind.String(), e.Site, e.Pos, string(e.Values)}, "|"))
	}
}

func TestHostileHeaders(t *testing.T) {
	valid := seedLogs(t)["uncompressed"]
	schemaEnd := int(8 + binary.LittleEndian.Uint32(valid[4:]))
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"huge metadata length", append([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, make([]byte, 64)...), "out of range"},
		{"negative metadata length", append([]byte{0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x80}, make([]byte, 64)...), "out of range"},
		{"legacy framing", append([]byte{0x10, 0, 0, 0}, make([]byte, 64)...), "continuation"},
		{"schema only, cut", valid[:schemaEnd-3], "ends inside the schema"},
		{"file magic without footer", append([]byte("ARROW1\x00\x00"), valid...), "no footer"},
		{"batch length beyond body", withBodyLength(t, valid, schemaEnd, 1<<40), "out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := readLimited(t, tc.data)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrCorrupt mentioning %q", err, tc.want)
			}
		})
	}
}

// withBodyLength rewrites the bodyLength field of the message at off.
func withBodyLength(t *testing.T, b []byte, off int, n int64) []byte {
	b = bytes.Clone(b)
	meta := b[off+8:]
	tab, err := fbRoot(meta)
	if err != nil {
		t.Fatal(err)
	}
	at := tab.field(3)
	if at < 0 {
		t.Fatal("no body length field")
	}
	binary.LittleEndian.PutUint64(meta[at:], uint64(n))
	return b
}
