package eventlog

import (
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestReservedRowHoldsOnlyItsBatch: an appender preempted between reserving
// its row and filling it (simulated by reserving by hand) holds up the write
// of its batch, and so Flush, but not the other appenders, which go on into
// later batches without waiting; once it fills its row, everything is written
// in Seq order, its event with the Seq it reserved.
func TestReservedRowHoldsOnlyItsBatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	w, err := Create(path, Meta{}, Options{BatchEvents: 16, Buffers: 8, FlushInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	first := Event{Kind: KindCallIn, Site: "first", Values: []byte{1}}
	if seq := w.Append(&first); seq != 1 {
		t.Fatalf("first event has seq %d", seq)
	}
	b := w.cur.Load()
	r := b.res.Add(resRow | 2) // the preempted appender's reservation: seq 2, 2 bytes of Values
	i := resRows(r) - 1
	const others = 40 // about three batches: fewer rows than the buffers hold
	done := make(chan struct{})
	go func() {
		defer close(done)
		for k := 0; k < others; k++ {
			e := Event{Kind: KindCallOut, Site: "other", Values: []byte{byte(k)}}
			if seq := w.Append(&e); seq != uint64(3+k) {
				t.Errorf("event %d of the others has seq %d, want %d", k, seq, 3+k)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("appenders waited for the preempted one")
	}
	if err := w.FlushWithin(50 * time.Millisecond); !errors.Is(err, ErrFlushTimeout) {
		t.Fatalf("Flush with a row still being filled: %v, want %v", err, ErrFlushTimeout)
	}
	late := Event{Kind: KindCallIn, Site: "late", Values: []byte{2, 3}}
	if seq := w.fill(b, i, r, &late); seq != 2 {
		t.Fatalf("the preempted appender's event has seq %d, want 2", seq)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, rd := readAll(t, path)
	defer rd.Close()
	if len(got) != others+2 {
		t.Fatalf("read %d events, want %d", len(got), others+2)
	}
	for k, e := range got {
		if e.Seq != uint64(k+1) {
			t.Fatalf("event %d has seq %d", k, e.Seq)
		}
	}
	if e := got[1]; e.Site != "late" || len(e.Values) != 2 || e.Values[0] != 2 || e.Values[1] != 3 {
		t.Errorf("seq 2 = %+v, want the preempted appender's event", e)
	}
	if m := rd.Meta(); m.Status.Dropped != 0 || m.Status.Blocked != 0 {
		t.Errorf("status %+v: nothing should be dropped or blocked", m.Status)
	}
}

// TestCopySmall: copySmall copies Values of every length exactly, and
// writes nothing outside its destination, where a neighbouring row's
// appender may be writing at the same time; the source's spare capacity
// never reaches the destination.
func TestCopySmall(t *testing.T) {
	for n := 0; n <= 40; n++ {
		src := make([]byte, n, n+8)
		for j := range src[:cap(src)] {
			src[:cap(src)][j] = 0xEE
		}
		for j := range src {
			src[j] = byte(j + 1)
		}
		room := make([]byte, n+16)
		for j := range room {
			room[j] = 0xAA
		}
		copySmall(room[8:8+n], src)
		for j, c := range room {
			want := byte(0xAA)
			if j >= 8 && j < 8+n {
				want = byte(j - 8 + 1)
			}
			if c != want {
				t.Fatalf("%d bytes: room[%d] = %#x, want %#x", n, j, c, want)
			}
		}
	}
}
