package calcbench

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probe"
)

// TestConcurrentIncallsGetOwnStreams: incalls from many goroutines at once
// are recorded in one stream per goroutine, each CALL_IN followed in its
// stream by its RETURN_IN, with a dense global sequence (run with -race).
func TestConcurrentIncallsGetOwnStreams(t *testing.T) {
	recorded := captureEvents()
	defer probe.CaptureTo(nil)
	const workers, calls = 16, 50
	var wg sync.WaitGroup
	// All workers live at once: a goroutine that ended could lend its g, and
	// with it its stream, to a worker started after it (see
	// TestReusedGoroutineContinuesIdleStream).
	start := make(chan struct{})
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for i := 0; i < calls; i++ {
				if got := Add(w, i); got != w+i {
					t.Errorf("Add(%d, %d) = %d", w, i, got)
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	probe.CaptureTo(nil)
	events := recorded()
	if len(events) != 2*workers*calls {
		t.Fatalf("%d events, want %d", len(events), 2*workers*calls)
	}
	open := map[uint32]uint64{} // stream -> seq of its open CALL_IN
	perStream := map[uint32]int{}
	for _, e := range events {
		switch e.Kind {
		case eventlog.KindCallIn:
			if open[e.Stream] != 0 {
				t.Fatalf("stream %d: CALL_IN %d while %d is open", e.Stream, e.Seq, open[e.Stream])
			}
			if e.Stream == 0 {
				t.Fatalf("worker incall recorded in stream 0 (package initialisation)")
			}
			open[e.Stream] = e.Seq
		case eventlog.KindReturnIn:
			if e.Parent != open[e.Stream] || e.Parent == 0 {
				t.Fatalf("stream %d: RETURN_IN %d ends %d, open call is %d", e.Stream, e.Seq, e.Parent, open[e.Stream])
			}
			open[e.Stream] = 0
			perStream[e.Stream]++
		default:
			t.Fatalf("unexpected %v", e.Kind)
		}
	}
	if len(perStream) != workers {
		t.Fatalf("%d streams, want one per goroutine (%d)", len(perStream), workers)
	}
	for s, n := range perStream {
		if n != calls {
			t.Errorf("stream %d has %d calls, want %d", s, n, calls)
		}
	}
}

// TestReusedGoroutineContinuesIdleStream: goroutines that end without
// synchronising with the next one (a server's request goroutines): the
// runtime reuses the g of an ended goroutine, and the new goroutine continues
// its idle stream. Under -race the stream's handoff must give the detector
// the order the runtime guarantees, or it reports a race on the stream.
func TestReusedGoroutineContinuesIdleStream(t *testing.T) {
	recorded := captureEvents()
	defer probe.CaptureTo(nil)
	const goroutines, calls = 20, 5
	base := runtime.NumGoroutine()
	var ended []chan struct{} // received only after the last goroutine started
	for g := 0; g < goroutines; g++ {
		end := make(chan struct{})
		ended = append(ended, end)
		go func() {
			for i := 0; i < calls; i++ {
				Add(g, i)
			}
			close(end)
		}()
		// Wait for it to end without a happens-before edge (no channel, no
		// WaitGroup), as external code that starts goroutines would.
		for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > base; {
			if time.Now().After(deadline) {
				t.Fatal("goroutine did not end")
			}
			runtime.Gosched()
		}
	}
	for _, end := range ended {
		<-end
	}
	probe.CaptureTo(nil)
	events := recorded()
	if len(events) != 2*goroutines*calls {
		t.Fatalf("%d events, want %d", len(events), 2*goroutines*calls)
	}
	for _, e := range events {
		if e.Stream == 0 {
			t.Fatalf("event %d in stream 0 (package initialisation)", e.Seq)
		}
	}
}

// captureEvents starts capturing into memory, numbering events in the order
// they arrive; the function it returns gives the events so far.
func captureEvents() func() []eventlog.Event {
	var mu sync.Mutex
	var events []eventlog.Event
	probe.CaptureTo(func(e *eventlog.Event) uint64 {
		mu.Lock()
		defer mu.Unlock()
		c := *e
		c.Values = append([]byte(nil), e.Values...)
		c.Seq = uint64(len(events) + 1)
		events = append(events, c)
		return c.Seq
	})
	return func() []eventlog.Event {
		mu.Lock()
		defer mu.Unlock()
		return events
	}
}
