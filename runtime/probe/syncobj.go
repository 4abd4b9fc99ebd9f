package probe

import (
	"reflect"
	"sync/atomic"
)

// Sync primitives reached through a pointer. Observed code that calls
// wg.Done() or mu.Lock() on a *sync.WaitGroup or *sync.Mutex parameter may
// hold an object of its own (the WaitGroup of the function that started
// the goroutine) or one that came from outside. The transform cannot tell,
// so the generated helper asks Private at run time:
//
//   - an object that never crossed the boundary is used only by observed
//     code, which runs again in replay: its methods run natively, in
//     capture and in replay, unrecorded (else replay would answer
//     wg.Done() from the log without running it, and the wg.Wait() that
//     waits for it would never return);
//   - an object that crossed it (an argument or result of an event, in
//     either direction) may be used by external code too, which replay does
//     not run: its methods are outcalls, recorded and answered from the log
//     (a placeholder's Wait returns when the log says so).
//
// Crossing is noted when the object gets its object ID, at the same events
// in capture (encoding) and replay (encoding or decoding), so both take
// the same decision at the same call (crossed.go, shared with channels).

// syncType: a pointer to a type of package sync or sync/atomic.
func syncType(t reflect.Type) bool {
	if t.Kind() != reflect.Pointer {
		return false
	}
	// Every first sight of an object asks (noteCrossed), mostly about the
	// type asked about last (a request's context); PkgPath reads the type's
	// name data, cold in a server.
	if last := lastSyncType.Load(); last != nil && last.t == t {
		return last.sync
	}
	pkg := t.Elem().PkgPath()
	sync := pkg == "sync" || pkg == "sync/atomic"
	lastSyncType.Store(&syncAnswer{t, sync})
	return sync
}

// syncAnswer is syncType's last answer.
type syncAnswer struct {
	t    reflect.Type
	sync bool
}

var lastSyncType atomic.Pointer[syncAnswer]

// Private reports whether x, a pointer to a sync primitive, never crossed
// the boundary: its methods then run natively (generated code; see above).
func Private(x any) bool {
	if crossings.sync.Load() == 0 {
		return true
	}
	return !crossed(x)
}
