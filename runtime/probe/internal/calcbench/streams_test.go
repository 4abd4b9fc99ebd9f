package calcbench

import (
	"sync"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probe"
)

// TestConcurrentIncallsGetOwnStreams: incalls from many goroutines at once
// are recorded in one stream per goroutine, each CALL_IN followed in its
// stream by its RETURN_IN, with a dense global sequence (run with -race).
func TestConcurrentIncallsGetOwnStreams(t *testing.T) {
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
	defer probe.CaptureTo(nil)
	const workers, calls = 16, 50
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < calls; i++ {
				if got := Add(w, i); got != w+i {
					t.Errorf("Add(%d, %d) = %d", w, i, got)
				}
			}
		}()
	}
	wg.Wait()
	probe.CaptureTo(nil)
	mu.Lock()
	defer mu.Unlock()
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
