package eventlog

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
)

func seqColumn(first uint64, n int, gap func(i int) uint64) []uint64 {
	col := make([]uint64, n)
	v := first
	for i := range col {
		col[i] = v
		v += gap(i)
	}
	return col
}

// TestSeqFrame decodes appendSeqFrame's frames with klauspost's decoder
// (Arrow Go's too) and, where installed, with the reference zstd command,
// and checks that a dense column costs about one byte per row.
func TestSeqFrame(t *testing.T) {
	one := func(int) uint64 { return 1 }
	r := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		name        string
		col         []uint64
		maxBytesRow float64 // 0: not checked
	}{
		{"empty", nil, 0},
		{"one row", []uint64{42}, 0},
		{"two rows", []uint64{42, 43}, 0},
		{"two rows, carry", []uint64{255, 256}, 0},
		{"dense", seqColumn(1, 2048, one), 1.12},
		{"dense, across blocks", seqColumn(1e6, 40000, one), 1.12},
		{"dense from 2^32-100", seqColumn(1<<32-100, 5000, one), 1.12},
		{"small gaps (drops)", seqColumn(7, 5000, func(i int) uint64 { return 1 + uint64(i%3) }), 1.2},
		{"equal rows", seqColumn(9, 3000, func(i int) uint64 { return uint64(i % 2) }), 1.12},
		{"large gaps", seqColumn(1, 3000, func(i int) uint64 { return 1 + uint64(i%2)*1000 }), 0},
		{"random", seqColumn(0, 20000, func(int) uint64 { return r.Uint64() }), 0},
		{"random, then dense", append(seqColumn(0, 17000, func(int) uint64 { return r.Uint64() }), seqColumn(5, 17000, one)...), 0},
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	var frames, inputs [][]byte
	for _, c := range cases {
		frame := appendSeqFrame([]byte("prefix"), c.col)[len("prefix"):]
		want := uint64Bytes(c.col)
		got, err := dec.DecodeAll(frame, nil)
		if err != nil {
			t.Fatalf("%s: decoding: %v", c.name, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: decoded %d bytes that differ from the %d written", c.name, len(got), len(want))
		}
		if perRow := float64(len(frame)) / float64(len(c.col)); c.maxBytesRow > 0 && perRow > c.maxBytesRow {
			t.Errorf("%s: %.2f bytes per row, want at most %.2f", c.name, perRow, c.maxBytesRow)
		}
		frames, inputs = append(frames, frame), append(inputs, want)
	}
	if _, err := exec.LookPath("zstd"); err != nil {
		t.Log("no zstd command: the reference decoder was not run")
		return
	}
	// The reference decoder, on all frames concatenated (a zstd stream of
	// several frames).
	path := filepath.Join(t.TempDir(), "frames.zst")
	if err := os.WriteFile(path, bytes.Join(frames, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("zstd", "-d", "-c", "-q", path).Output()
	if err != nil {
		t.Fatalf("zstd -d: %v", err)
	}
	if want := bytes.Join(inputs, nil); !bytes.Equal(out, want) {
		t.Fatalf("zstd -d: decoded %d bytes, want the %d bytes written", len(out), len(want))
	}
}

// FuzzSeqFrame: any column round-trips.
func FuzzSeqFrame(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0})
	f.Add(bytes.Repeat([]byte{0xff}, 64))
	dec, err := zstd.NewReader(nil)
	if err != nil {
		f.Fatal(err)
	}
	defer dec.Close()
	f.Fuzz(func(t *testing.T, b []byte) {
		col := make([]uint64, len(b)/8)
		for i := range col {
			col[i] = binary.LittleEndian.Uint64(b[8*i:])
		}
		got, err := dec.DecodeAll(appendSeqFrame(nil, col), nil)
		if err != nil || !bytes.Equal(got, uint64Bytes(col)) {
			t.Fatalf("%x: decoded %x, %v", uint64Bytes(col), got, err)
		}
	})
}

// TestCaptureBatchBuffers: in the compressed record batches the writer
// writes, the seq column is an appendSeqFrame frame (about a byte per row),
// and the Values offsets are stored uncompressed (length prefix -1) when
// the Values average rawOffsetsMinValues bytes or more, else compressed; a
// compacted log compresses all of them with zstd's match search.
func TestCaptureBatchBuffers(t *testing.T) {
	for _, valueBytes := range []int{4, rawOffsetsMinValues - 1, rawOffsetsMinValues, 200} {
		t.Run(fmt.Sprintf("values=%d", valueBytes), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "log.arrows")
			w, err := Create(path, Meta{}, Options{BatchEvents: 1000, AlwaysCompress: true})
			if err != nil {
				t.Fatal(err)
			}
			for i := range 3000 {
				e := sampleEvent(i)
				e.Values = bytes.Repeat([]byte{byte(i)}, valueBytes)
				w.Append(&e)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			compacted := filepath.Join(dir, "log.arrow")
			if _, err := Compact(compacted, path, CompactOptions{BatchEvents: 1000}); err != nil {
				t.Fatal(err)
			}
			rawOffsets := valueBytes >= rawOffsetsMinValues
			for _, c := range []struct {
				path      string
				capturing bool
			}{{path, true}, {compacted, false}} {
				r, err := Open(c.path)
				if err != nil {
					t.Fatal(err)
				}
				batches := 0
				for {
					msg, err := r.msgs.next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					if msg.htype != headerRecBatch {
						continue
					}
					batches++
					if !msg.compressed {
						t.Fatalf("%s: batch %d uncompressed", c.path, batches)
					}
					seq := msg.bufs[2*colSeq+1]
					valOff := msg.bufs[2*colValues+1]
					seqFrame := msg.body[seq.off+8 : seq.off+seq.len]
					prefix := int64(binary.LittleEndian.Uint64(msg.body[valOff.off:]))
					isSeqFrame := bytes.Equal(seqFrame[:5], []byte{0x28, 0xb5, 0x2f, 0xfd, 0xa0}) && len(seqFrame) <= 12*msg.rows/10+40
					if isSeqFrame != c.capturing {
						t.Errorf("%s: batch %d: seq buffer %x... (%d bytes for %d rows), want a seq frame: %v",
							c.path, batches, seqFrame[:min(len(seqFrame), 8)], len(seqFrame), msg.rows, c.capturing)
					}
					want := 4 * int64(msg.rows+1)
					if c.capturing && rawOffsets {
						want = -1
					}
					if prefix != want {
						t.Errorf("%s: batch %d: values offsets' length prefix %d, want %d", c.path, batches, prefix, want)
					}
				}
				r.Close()
				if batches < 3 {
					t.Fatalf("%s: %d record batches, want 3 or more", c.path, batches)
				}
				got := checkArrowAgrees(t, c.path) // Arrow Go reads the same events
				if len(got) != 3000 || len(got[2999].Values) != valueBytes {
					t.Fatalf("%s: read %d events", c.path, len(got))
				}
			}
		})
	}
}
