package probe

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// TestWatchedGarbageCollectedWhileIncallsRun: objects of an observed type
// that crossed the boundary and were dropped are collected by a garbage
// collection that runs while top-level incalls go on (the example shop's
// loadgen.TestWorkloadFollowsMix kept ~18,000 dropped carts alive).
// The checks of watched fields before and after every top-level incall
// read each watched object; reading it through its weak pointer
// (weak.Pointer.Value) during a collection's mark phase makes it reachable
// for that collection, so in a program that kept making incalls no watched
// object was ever collected: the set grew with every object that crossed,
// and each incall compared them all (loadgen's TestWorkloadFollowsMix:
// 18,000 carts, 15 µs of CPU per event).
func TestWatchedGarbageCollectedWhileIncallsRun(t *testing.T) {
	CaptureTo(func(*eventlog.Event) uint64 { return 1 })
	defer CaptureTo(nil)
	restoreWatchedFields(t)
	site := &Site{Name: "example.com/f.New"}
	incall := func(x any) {
		s := In(site)
		f := s.Call()
		if x != nil {
			Encode(s, x)
		}
		s.Return(f)
	}
	const n = 3000
	func() {
		for i := range n {
			incall(&fieldsTestFlag{Name: fmt.Sprint(i)}) // dropped at once
		}
	}()
	live := func() int {
		k := 0
		for _, w := range *watchedFields.list.Load() {
			if w.alive() {
				k++
			}
		}
		return k
	}
	if k := live(); k < n/2 {
		t.Skipf("a collection ran already: %d of %d watched objects alive", k, n)
	}
	// Top-level incalls on another goroutine for the whole collection.
	var stop atomic.Bool
	var wg sync.WaitGroup
	started := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			incall(nil)
			if i == 0 {
				close(started)
			}
		}
	}()
	<-started
	runtime.GC()
	stop.Store(true)
	wg.Wait()
	if k := live(); k > n/10 {
		t.Errorf("%d of %d dropped watched objects survived a collection that ran while incalls checked them", k, n)
	}
}
