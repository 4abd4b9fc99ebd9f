package eventlog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

// sampleEvent builds the i-th event of a deterministic, realistic mix:
// a few dozen sites, small integers, short strings.
func sampleEvent(i int) Event {
	kinds := []Kind{KindCallIn, KindCallOut, KindReturnOut, KindReturnIn, KindReadOut, KindGo}
	k := kinds[i%len(kinds)]
	e := Event{
		Stream: uint32(i % 7),
		Kind:   k,
		Parent: uint64(i / 2),
		Site:   sites[i%len(sites)],
		Pos:    positions[i%len(positions)],
	}
	if i%3 == 0 {
		e.RecvType = "*net/http.Client"
		e.RecvID = uint64(i%5 + 1)
	}
	var v [20]byte
	n := binary.PutUvarint(v[:], uint64(i%100))
	n += binary.PutUvarint(v[n:], uint64(i%13))
	e.Values = append([]byte(nil), v[:n]...)
	return e
}

var sites, positions []string

func init() {
	for i := 0; i < 40; i++ {
		sites = append(sites, fmt.Sprintf("example.com/shop/pricing.Func%d", i))
		positions = append(positions, fmt.Sprintf("pricing/quote.go:%d", 10+i))
	}
}

func writeLog(t testing.TB, path string, n int, opts Options) Meta {
	t.Helper()
	meta := Meta{ObservedPackages: []string{"example.com/shop/pricing"}, SourceHash: "sha256:abc", BuildLabel: "//shop:shop_capture"}
	w, err := Create(path, meta, opts)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		e := sampleEvent(i)
		if got := w.Append(&e); got != uint64(i+1) {
			t.Fatalf("Append #%d returned seq %d", i, got)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return meta
}

func readAll(t testing.TB, path string) ([]Event, *Reader) {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []Event
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		c := *e
		c.Values = append([]byte(nil), e.Values...)
		out = append(out, c)
	}
	return out, r
}

// TestReaderAll: All yields what Next returns, in order, ends at the log's
// end, stops where the loop breaks (the next Next gets the next event),
// and yields a read error once, with no event, as the last thing.
func TestReaderAll(t *testing.T) {
	path := filepath.Join(t.TempDir(), "all.arrow")
	writeLog(t, path, 100, Options{BatchEvents: 10})

	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var n uint64
	for e, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		if n++; e.Seq != n {
			t.Fatalf("event %d has seq %d", n, e.Seq)
		}
	}
	r.Close()
	if n != 100 {
		t.Fatalf("All yielded %d events, want 100", n)
	}

	r, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for e := range r.All() {
		if e.Seq == 3 {
			break
		}
	}
	if e, err := r.Next(); err != nil || e.Seq != 4 {
		t.Fatalf("Next after breaking at seq 3 = %v, %v; want seq 4", e, err)
	}
	r.Close()

	// The log cut in the middle of its batches: a closed log missing events.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := b[:len(b)/2]
	r, err = NewReader(bytes.NewReader(cut), int64(len(cut)), "cut")
	if err != nil {
		t.Fatal(err)
	}
	var events, errs int
	for e, err := range r.All() {
		if errs > 0 {
			t.Fatalf("All went on after the error: %v, %v", e, err)
		}
		if err != nil {
			if e != nil || !errors.Is(err, ErrCorrupt) {
				t.Fatalf("All yielded %v, %v; want no event and a corrupt log", e, err)
			}
			errs++
			continue
		}
		events++
	}
	if errs != 1 || events == 0 || events >= 100 {
		t.Fatalf("the cut log: %d events and %d errors, want some events and one error", events, errs)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		opts Options
	}{
		{"empty", 0, Options{}},
		{"one", 1, Options{}},
		{"small batches", 1000, Options{BatchEvents: 7}},
		{"default", 50000, Options{}},
		{"uncompressed", 3000, Options{Compression: Uncompressed, BatchEvents: 100}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "log.arrows")
			meta := writeLog(t, path, tc.n, tc.opts)
			got, r := readAll(t, path)
			defer r.Close()
			if len(got) != tc.n {
				t.Fatalf("read %d events, wrote %d", len(got), tc.n)
			}
			for i, e := range got {
				want := sampleEvent(i)
				want.Seq = uint64(i + 1)
				if !reflect.DeepEqual(e, want) {
					t.Fatalf("event %d:\n got %+v\nwant %+v", i, e, want)
				}
			}
			m := r.Meta()
			if m.FormatVersion != FormatVersion || !reflect.DeepEqual(m.ObservedPackages, meta.ObservedPackages) ||
				m.SourceHash != meta.SourceHash || m.BuildLabel != meta.BuildLabel || m.GoVersion == "" || m.RunID == "" || m.StartTime.IsZero() {
				t.Errorf("meta = %+v", m)
			}
			if !m.Status.Closed || m.Status.Events != uint64(tc.n) || m.Status.Dropped != 0 || !m.Status.Complete() {
				t.Errorf("status = %+v, want closed with %d events", m.Status, tc.n)
			}
			if tt, torn := r.Torn(); torn {
				t.Errorf("closed log reported torn: %+v", tt)
			}
		})
	}
}

func TestConcurrentAppendKeepsSeqOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	w, err := Create(path, Meta{}, Options{BatchEvents: 256, Buffers: 2})
	if err != nil {
		t.Fatal(err)
	}
	const goroutines, per = 8, 5000
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < per; i++ {
				e := Event{Stream: uint32(g), Kind: KindCallIn, Site: sites[i%len(sites)], Values: []byte{byte(g), byte(i)}}
				w.Append(&e)
				if i%1000 == 0 {
					if err := w.Flush(); err != nil {
						t.Error(err)
					}
				}
			}
		}(g)
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, r := readAll(t, path)
	defer r.Close()
	if len(got) != goroutines*per {
		t.Fatalf("read %d events, want %d", len(got), goroutines*per)
	}
	next := make([]int, goroutines)
	for i, e := range got {
		if e.Seq != uint64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
		// Each goroutine's events appear in its own program order.
		g := int(e.Stream)
		if int(e.Values[1]) != next[g]%256 || e.Site != sites[next[g]%len(sites)] {
			t.Fatalf("stream %d: event %d out of order", g, next[g])
		}
		next[g]++
	}
}

func TestFlushMakesEventsReadableWhileWriting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	w, err := Create(path, Meta{}, Options{FlushInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i := 0; i < 10; i++ {
		e := sampleEvent(i)
		w.Append(&e)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got, r := readAll(t, path)
	defer r.Close()
	if len(got) != 10 {
		t.Fatalf("read %d events after Flush, want 10", len(got))
	}
	if tt, torn := r.Torn(); !torn || tt.Bytes != 0 {
		t.Errorf("open log: Torn() = %+v, %v; want torn at a batch boundary", tt, torn)
	}
	if st := r.Meta().Status; st.Closed || st.Events != 10 {
		t.Errorf("status while writing = %+v", st)
	}
}

func TestFlushIntervalWritesWithoutFlush(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	w, err := Create(path, Meta{}, Options{FlushInterval: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e := sampleEvent(0)
	w.Append(&e)
	for deadline := time.Now().Add(10 * time.Second); ; {
		got, r := readAll(t, path)
		r.Close()
		if len(got) == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("event not written by the flush interval")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestDropPolicyCountsAndMarksIncomplete(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	w, err := Create(path, Meta{}, Options{Policy: Drop, BatchEvents: 1, Buffers: 2, MaxValueBytes: 8})
	if err != nil {
		t.Fatal(err)
	}
	big := Event{Kind: KindCallIn, Site: "s", Values: make([]byte, 9)}
	w.Append(&big) // oversized: dropped regardless of the policy
	for i := 0; i < 20000; i++ {
		e := sampleEvent(i)
		w.Append(&e)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, r := readAll(t, path)
	defer r.Close()
	st := r.Meta().Status
	if st.Dropped == 0 || st.Complete() {
		t.Fatalf("status %+v: want drops with a tiny buffer", st)
	}
	if uint64(len(got))+st.Dropped != 20001 || st.Events != uint64(len(got)) {
		t.Fatalf("%d written + %d dropped != 20001 appended (status %+v)", len(got), st.Dropped, st)
	}
	if got[0].Seq == 1 {
		t.Errorf("oversized event 1 was written")
	}
}

func TestBlockPolicyLosesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	w, err := Create(path, Meta{}, Options{BatchEvents: 1, Buffers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1000; i++ {
		e := sampleEvent(i)
		w.Append(&e)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, r := readAll(t, path)
	defer r.Close()
	st := r.Meta().Status
	if len(got) != 1000 || st.Dropped != 0 || !st.Complete() || st.Blocked == 0 {
		t.Fatalf("read %d, status %+v", len(got), st)
	}
}

func TestAppendAfterCloseIsIgnored(t *testing.T) {
	// With free batches left at Close (several were allocated and all
	// written by the Flush), Close must still leave none for Append.
	path := filepath.Join(t.TempDir(), "log.arrows")
	w, err := Create(path, Meta{}, Options{BatchEvents: 10, Buffers: 4})
	if err != nil {
		t.Fatal(err)
	}
	const before = 25
	for i := 0; i < before; i++ {
		e := sampleEvent(i)
		w.Append(&e)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		e := sampleEvent(i)
		if seq := w.Append(&e); seq != 0 || e.Seq != 0 {
			t.Errorf("Append after Close returned %d, set Seq %d", seq, e.Seq)
		}
	}
	if err := w.Close(); err == nil {
		t.Error("second Close succeeded")
	}
	got, r := readAll(t, path)
	r.Close()
	if len(got) != before {
		t.Errorf("log holds %d events, want the %d appended before Close", len(got), before)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(filepath.Join(dir, "missing")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o644)
	if _, err := Open(empty); !errors.Is(err, ErrCorrupt) {
		t.Errorf("empty file: %v", err)
	}
	junk := filepath.Join(dir, "junk")
	os.WriteFile(junk, []byte("this is not an arrow file at all"), 0o644)
	if _, err := Open(junk); !errors.Is(err, ErrCorrupt) {
		t.Errorf("junk file: %v", err)
	}
}

// recordBatchCompression lists, for each record batch of the log at path,
// whether it is compressed.
func recordBatchCompression(t *testing.T, path string) []bool {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []bool
	for {
		msg, err := r.msgs.next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if msg.htype == headerRecBatch {
			out = append(out, msg.compressed)
		}
	}
}

// TestWriterBehindSkipsCompression: batches that find another full batch
// waiting are written uncompressed (the writer catches up), the others
// compressed, once the log is no longer small (smallLogBytes: the first
// batches are written uncompressed); with AlwaysCompress every batch is
// compressed. Either way the log reads back complete.
func TestWriterBehindSkipsCompression(t *testing.T) {
	for _, always := range []bool{false, true} {
		t.Run(fmt.Sprintf("always=%v", always), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "log.arrows")
			w, err := Create(path, Meta{}, Options{BatchEvents: 100, Buffers: 4, FlushInterval: time.Hour, AlwaysCompress: always})
			if err != nil {
				t.Fatal(err)
			}
			head, _ := os.Stat(path) // the schema: not data
			// A small log: 200 events in 2 batches, under 16 KiB of data.
			const small = 200
			for i := 0; i < small; i++ {
				e := sampleEvent(i)
				w.Append(&e)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if st, _ := os.Stat(path); st.Size()-head.Size() >= smallLogBytes {
				t.Fatalf("the small part of the log has %d bytes of data", st.Size()-head.Size())
			}
			// 500 more, a full batch at a time, each written before the
			// next fills: the log outgrows smallLogBytes.
			for i := small; i < small+500; i++ {
				e := sampleEvent(i)
				w.Append(&e)
				if i%100 == 99 {
					waitWritten(w, uint64(i+1))
				}
			}
			// Hold the encoder back while three batches fill: the first
			// it takes finds two more waiting.
			w.encodeGate.Lock()
			for i := small + 500; i < small+800; i++ {
				e := sampleEvent(i)
				w.Append(&e)
			}
			w.encodeGate.Unlock()
			waitWritten(w, small+800) // the queue is empty again
			for i := small + 800; i < small+850; i++ {
				e := sampleEvent(i)
				w.Append(&e)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got, r := readAll(t, path)
			r.Close()
			if len(got) != small+850 {
				t.Fatalf("read %d events, want %d", len(got), small+850)
			}
			for i, e := range got {
				want := sampleEvent(i)
				want.Seq = uint64(i + 1)
				if !reflect.DeepEqual(e, want) {
					t.Fatalf("event %d: got %+v, want %+v", i, e, want)
				}
			}
			comp := recordBatchCompression(t, path)
			if len(comp) != 11 {
				t.Fatalf("%d record batches, want 11 (2 small, 5, 3 full, 1 at Close)", len(comp))
			}
			// Batches of 100 sample events are 4.8 KB uncompressed, the
			// first one's dictionary strings 2.5 KB more: the log is small
			// for 2 batches. Two of the three held back found a batch
			// waiting; then the writer caught up.
			want := []bool{false, false, true, true, true, true, true, false, false, true, true}
			if always {
				want = []bool{true, true, true, true, true, true, true, true, true, true, true}
			}
			if !reflect.DeepEqual(comp, want) {
				t.Errorf("record batches compressed: %v, want %v", comp, want)
			}
		})
	}
}

// waitWritten returns once the encoder has written every event up to seq.
func waitWritten(w *Writer, seq uint64) {
	w.doneMu.Lock()
	for w.doneSeq < seq {
		w.doneCond.Wait()
	}
	w.doneMu.Unlock()
}

// TestLargeValuesFilledOutsideTheLock: rows whose Values exceed
// lockedFillMax are copied after Append releases the lock; concurrent
// appenders of small and large values still produce a log that holds every
// event intact, in Seq order.
func TestLargeValuesFilledOutsideTheLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	w, err := Create(path, Meta{}, Options{BatchEvents: 64, Buffers: 3})
	if err != nil {
		t.Fatal(err)
	}
	const goroutines, per = 8, 200
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				n := 3
				if i%2 == 0 {
					n = lockedFillMax + 1 + i
				}
				v := make([]byte, n)
				for j := range v {
					v[j] = byte(g)
				}
				e := Event{Stream: uint32(g), Kind: KindCallIn, Site: "s", Values: v}
				w.Append(&e)
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, r := readAll(t, path)
	r.Close()
	if len(got) != goroutines*per {
		t.Fatalf("read %d events, want %d", len(got), goroutines*per)
	}
	for i, e := range got {
		if e.Seq != uint64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
		for _, c := range e.Values {
			if c != byte(e.Stream) {
				t.Fatalf("seq %d: values of stream %d hold byte %d", e.Seq, e.Stream, c)
			}
		}
	}
}

// TestBatchesAllocatedWhenNeeded: a log with few events allocates one small
// batch (short processes, one test each, used to pay for megabytes of
// batches); a busy log gets full-size batches once the small one fills.
func TestBatchesAllocatedWhenNeeded(t *testing.T) {
	dir := t.TempDir()
	quiet, err := Create(filepath.Join(dir, "quiet.arrows"), Meta{}, Options{FlushInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		e := sampleEvent(i)
		quiet.Append(&e)
	}
	if err := quiet.Close(); err != nil {
		t.Fatal(err)
	}
	if quiet.batches != 1 {
		t.Errorf("a log of 100 events allocated %d batches, want 1", quiet.batches)
	}

	path := filepath.Join(dir, "busy.arrows")
	busy, err := Create(path, Meta{}, Options{FlushInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	const n = 3*smallBatchEvents + 10
	for i := 0; i < n; i++ {
		e := sampleEvent(i)
		busy.Append(&e)
	}
	if err := busy.Close(); err != nil {
		t.Fatal(err)
	}
	// Every batch is back on the free list after Close.
	for len(busy.free) > 0 {
		if b := <-busy.free; len(b.rows) != busy.opts.BatchEvents {
			t.Errorf("after %d events a batch holds %d rows, want the full %d", n, len(b.rows), busy.opts.BatchEvents)
		}
	}
	got, r := readAll(t, path)
	defer r.Close()
	if len(got) != n {
		t.Fatalf("read %d events, wrote %d", len(got), n)
	}
	for i, e := range got {
		want := sampleEvent(i)
		want.Seq = uint64(i + 1)
		if !reflect.DeepEqual(e, want) {
			t.Fatalf("event %d:\n got %+v\nwant %+v", i, e, want)
		}
	}
}

// TestSmallLogIsNotCompressed: a log of up to smallLogBytes of data is
// written without compression and without creating a zstd encoder (the
// creation costs a short process more than compressing saves); once a log
// outgrows it, its batches are compressed. Both read back complete.
func TestSmallLogIsNotCompressed(t *testing.T) {
	for _, tc := range []struct {
		events     int
		compressed bool
	}{{0, false}, {1, false}, {150, false},
		// Not a multiple of the batch size: the last 50 events are Close's
		// own batch, which is compressed once the log is large. The full
		// batches before it may all be written uncompressed (a batch is
		// while another waits behind it: the writer catching up).
		{2050, true}} {
		t.Run(fmt.Sprint(tc.events), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "log.arrows")
			w, err := Create(path, Meta{}, Options{BatchEvents: 100})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < tc.events; i++ {
				e := sampleEvent(i)
				w.Append(&e)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if created := w.sink.enc.zstd != nil; created != tc.compressed {
				t.Errorf("zstd encoder created: %v, want %v", created, tc.compressed)
			}
			r, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var kinds []string
			compressed := false
			for {
				msg, err := r.msgs.next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if msg.compressed {
					compressed = true
					kinds = append(kinds, fmt.Sprint(msg.htype))
				}
			}
			if compressed != tc.compressed {
				t.Errorf("compressed messages (types %v): %v, want %v", kinds, compressed, tc.compressed)
			}
			if got, _ := readAll(t, path); len(got) != tc.events {
				t.Errorf("read %d events, want %d", len(got), tc.events)
			}
		})
	}
}
