package eventlog

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// contendedValues is the Values of event i of goroutine g: lengths from 0
// to 40 bytes (reserved without the lock, with neighbours' Values on either
// side) and, every 97th, longer than lockedFillMax (reserved under the
// lock, copied after it). The slice's spare capacity holds 0xEE bytes,
// which must never reach the log.
func contendedValues(g, i int) []byte {
	n := (g + i) % 41
	if i%97 == 0 {
		n = lockedFillMax + 1 + i%50
	}
	spare := (g * i) % 24
	v := make([]byte, n, n+spare)
	for j := range v {
		v[j] = byte(g*7 + i + j)
	}
	full := v[:cap(v)]
	for j := n; j < len(full); j++ {
		full[j] = 0xEE
	}
	return v
}

// TestContendedAppend: 64 goroutines append concurrently into small
// batches (so that rows, Values and dispatches interleave), with Flush calls
// and a short flush interval racing them. Every Seq is unique and dense,
// the file is in Seq order, each goroutine's events are in its program
// order, and every event holds exactly what its goroutine appended (no
// bytes from a neighbour's row or from a Values slice's spare capacity).
// With the Drop policy, the events that were kept are all intact and
// in Seq order, and each missing Seq is counted as dropped.
func TestContendedAppend(t *testing.T) {
	for _, policy := range []Backpressure{Block, Drop} {
		t.Run(fmt.Sprintf("policy=%d", policy), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "log.arrows")
			w, err := Create(path, Meta{}, Options{BatchEvents: 100, BatchBytes: 4 << 10, Buffers: 2,
				FlushInterval: time.Millisecond, Policy: policy})
			if err != nil {
				t.Fatal(err)
			}
			const goroutines, per = 64, 1500
			seqs := make([][]uint64, goroutines) // Seq that Append returned for each event
			var wg sync.WaitGroup
			for g := 0; g < goroutines; g++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					seqs[g] = make([]uint64, per)
					for i := 0; i < per; i++ {
						e := Event{Stream: uint32(g), Kind: KindCallIn, Parent: uint64(i), Site: sites[(g+i)%len(sites)],
							Pos: positions[i%len(positions)], Values: contendedValues(g, i)}
						if i%3 == 0 {
							e.RecvType, e.RecvID = "*example.com/shop.Cart", uint64(g)
						}
						seqs[g][i] = w.Append(&e)
						if e.Seq != seqs[g][i] {
							t.Errorf("Append returned %d but set Seq %d", seqs[g][i], e.Seq)
						}
						if i%500 == 0 {
							if err := w.Flush(); err != nil {
								t.Error(err)
							}
						}
					}
				}()
			}
			wg.Wait()
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}

			const total = goroutines * per
			owner := make([]int32, total+1) // Seq -> g*per+i+1 (0: none)
			for g := range seqs {
				for i, s := range seqs[g] {
					if s < 1 || s > total {
						t.Fatalf("goroutine %d event %d got Seq %d, outside 1..%d", g, i, s, total)
					}
					if owner[s] != 0 {
						t.Fatalf("Seq %d assigned twice", s)
					}
					owner[s] = int32(g*per + i + 1)
				}
			}

			got, r := readAll(t, path)
			defer r.Close()
			st := r.Meta().Status
			if policy == Block && (len(got) != total || st.Dropped != 0) {
				t.Fatalf("Block: read %d events (%d dropped), want all %d", len(got), st.Dropped, total)
			}
			if uint64(len(got))+st.Dropped != total || st.Events != uint64(len(got)) {
				t.Fatalf("read %d events, status %+v: written + dropped != %d appended", len(got), st, total)
			}
			if policy == Drop {
				t.Logf("Drop: %d of %d events kept", len(got), total)
			}
			last := make([]int, goroutines)
			for g := range last {
				last[g] = -1
			}
			var prev uint64
			for _, e := range got {
				if e.Seq <= prev {
					t.Fatalf("Seq %d after %d: file not in Seq order", e.Seq, prev)
				}
				if policy == Block && e.Seq != prev+1 {
					t.Fatalf("Seq %d after %d: gap without drops", e.Seq, prev)
				}
				prev = e.Seq
				gi := int(owner[e.Seq]) - 1
				g, i := gi/per, gi%per
				if int(e.Stream) != g || e.Parent != uint64(i) {
					t.Fatalf("Seq %d: stream %d parent %d, but goroutine %d appended its event %d with that Seq", e.Seq, e.Stream, e.Parent, g, i)
				}
				if i <= last[g] {
					t.Fatalf("goroutine %d: event %d after event %d", g, i, last[g])
				}
				last[g] = i
				wantRecv := ""
				if i%3 == 0 {
					wantRecv = "*example.com/shop.Cart"
				}
				if e.Site != sites[(g+i)%len(sites)] || e.Pos != positions[i%len(positions)] || e.RecvType != wantRecv || e.Kind != KindCallIn {
					t.Fatalf("Seq %d (goroutine %d event %d): %+v", e.Seq, g, i, e)
				}
				if want := contendedValues(g, i); !bytes.Equal(e.Values, want) {
					t.Fatalf("Seq %d (goroutine %d event %d): values\n got % x\nwant % x", e.Seq, g, i, e.Values, want)
				}
			}
		})
	}
}
