package probe

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// TestCloseWhileObservedGoroutinesRun: Close switches capture off while a
// goroutine of observed code still runs probes, with nothing ordering the
// two (golang-lru's expirable reaper never ends; the corpus program reaper's
// would not either without its join). Under the race detector (go test
// -race) this was a data race on the enabled flag.
func TestCloseWhileObservedGoroutinesRun(t *testing.T) {
	CaptureTo(func(*eventlog.Event) uint64 { return 1 })
	defer CaptureTo(nil)
	var stop atomic.Bool // loaded only: no happens-before edge from the probes' reads to Close
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			_ = On()
			runtime.Gosched()
		}
	}()
	time.Sleep(5 * time.Millisecond)
	Close()
	time.Sleep(5 * time.Millisecond)
	stop.Store(true)
	<-done
	if On() {
		t.Fatal("capture still on after Close")
	}
}
