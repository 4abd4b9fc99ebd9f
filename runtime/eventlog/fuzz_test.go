package eventlog

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seedLogs returns valid logs of each layout, for fuzz seeds and hostile
// input tests.
func seedLogs(t testing.TB) map[string][]byte {
	dir := t.TempDir()
	out := map[string][]byte{}
	for name, opts := range map[string]Options{
		"zstd":         {BatchEvents: 4},
		"uncompressed": {BatchEvents: 4, Compression: Uncompressed},
	} {
		path := filepath.Join(dir, name)
		writeLog(t, path, 10, opts)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = b
	}
	// A compacted file of the zstd log (file format, footer).
	path := filepath.Join(dir, "compacted")
	if _, err := Compact(path, filepath.Join(dir, "zstd"), CompactOptions{BatchEvents: 4}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out["compacted"] = b
	return out
}

// readLimited reads every event of data and returns the error that ended
// the iteration (nil for a clean end).
func readLimited(t testing.TB, data []byte) error {
	r, err := NewReader(bytes.NewReader(data), int64(len(data)), "fuzz")
	if err != nil {
		return err
	}
	defer r.Close()
	for i := 0; ; i++ {
		e, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		_ = e.Kind.String() + e.Site + e.Pos + e.RecvType
		_ = len(e.Values)
	}
}

func FuzzReader(f *testing.F) {
	for _, b := range seedLogs(f) {
		f.Add(b)
		for _, cut := range []int{7, 100, len(b) / 2, len(b) - 9} {
			if cut > 0 && cut < len(b) {
				f.Add(b[:cut])
			}
		}
	}
	// Checksums would stop nearly every mutation before the parser; a
	// hostile file carries valid ones.
	recoverPanics, ignoreChecksums = false, true
	f.Cleanup(func() { recoverPanics, ignoreChecksums = true, false })
	f.Fuzz(func(t *testing.T, data []byte) {
		err := readLimited(t, data)
		if err == nil {
			return
		}
		// Arrow recovers its own panics into this message: it means our
		// checks let something through that Arrow could not decode.
		if strings.Contains(err.Error(), "unknown error while") {
			t.Fatalf("a panic inside Arrow got past the checks: %v", err)
		}
		var pe *os.PathError
		if !errors.Is(err, ErrCorrupt) && !errors.As(err, &pe) {
			t.Fatalf("error does not wrap ErrCorrupt: %v", err)
		}
	})
}
