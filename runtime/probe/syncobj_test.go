package probe

import (
	"os"
	"os/signal"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestPrivateUntilCrossed: a sync primitive is private (its methods run
// natively) until it gets an object ID at an event; other objects, and
// references of other types, do not change that.
func TestPrivateUntilCrossed(t *testing.T) {
	mine, theirs := new(sync.WaitGroup), new(sync.WaitGroup)
	n := new(atomic.Int64)
	if !Private(mine) || !Private(theirs) || !Private(n) {
		t.Fatal("fresh objects must be private")
	}
	for _, v := range []any{new(int), theirs, n} {
		captureObjects.ID(reflect.ValueOf(v), "", true) // as an event's encoding does
	}
	if !Private(mine) {
		t.Error("an object that never crossed is not private")
	}
	if Private(theirs) || Private(n) {
		t.Error("an object that crossed the boundary is still private")
	}
	noteCrossed(reflect.ValueOf((*sync.Mutex)(nil))) // ignored
	runtime.KeepAlive(theirs)
	runtime.KeepAlive(n)
}

// TestAllBlocked: a goroutine waiting on a channel counts as blocked, one
// that spins (a goroutine merely slow, from the player's point of view)
// does not.
func TestAllBlocked(t *testing.T) {
	var buf []byte
	// A signal.Notify anywhere in the process (rules_go's test wrapper does
	// one) leaves a goroutine in a system call waiting for signals.
	signal.Notify(make(chan os.Signal, 1), os.Interrupt)
	defer signal.Reset(os.Interrupt)
	release := make(chan struct{})
	go func() { <-release }()
	deadline := time.Now().Add(5 * time.Second)
	for !allBlocked(&buf) {
		if time.Now().After(deadline) {
			t.Fatal("a goroutine waiting on a channel is never seen as blocked")
		}
		time.Sleep(time.Millisecond)
	}
	var stop atomic.Bool
	spinning := make(chan struct{})
	go func() {
		close(spinning)
		for !stop.Load() {
		}
	}()
	<-spinning
	if allBlocked(&buf) {
		t.Error("a spinning goroutine is seen as blocked")
	}
	stop.Store(true)
	close(release)
	for _, s := range []string{"chan receive", "select", "sync.WaitGroup.Wait", "sync.Mutex.Lock", "semacquire"} {
		if !waitingState(s) {
			t.Errorf("%q: not a waiting state", s)
		}
	}
	for _, s := range []string{"running", "runnable", "syscall", "sleep", "IO wait"} {
		if waitingState(s) {
			t.Errorf("%q: a waiting state", s)
		}
	}
}

// TestCrossedForgotten: a collected object that crossed is forgotten (the
// object table drops its entry), so a new object, even at its address, has
// not crossed; a live one stays crossed.
func TestCrossedForgotten(t *testing.T) {
	keep := make(chan int)
	captureObjects.ID(reflect.ValueOf(keep), "chan int", true)
	for range 100 {
		captureObjects.ID(reflect.ValueOf(make(chan int)), "chan int", true)
	}
	appendNumberingEvent()
	runtime.GC()
	if !crossed(keep) {
		t.Error("a live channel that crossed is forgotten")
	}
	for range 100 {
		if ch := make(chan int); crossed(ch) {
			t.Fatal("a new channel has crossed")
		}
	}
	runtime.KeepAlive(keep)
}

// TestSyncType: pointers to sync and sync/atomic types, asked in any order
// (syncType remembers its last answer), and no other.
func TestSyncType(t *testing.T) {
	cases := []struct {
		v    any
		sync bool
	}{
		{(*sync.Mutex)(nil), true}, {(*sync.Mutex)(nil), true}, {(*int)(nil), false},
		{(*sync.WaitGroup)(nil), true}, {(*atomic.Int64)(nil), true}, {(*objectsTestT)(nil), false},
		{(*objectsTestT)(nil), false}, {sync.Mutex{}, false}, {(*sync.Mutex)(nil), true},
	}
	for i, c := range cases {
		if got := syncType(reflect.TypeOf(c.v)); got != c.sync {
			t.Errorf("case %d: syncType(%T) = %v, want %v", i, c.v, got, c.sync)
		}
	}
}
