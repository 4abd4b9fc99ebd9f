package probe

import (
	"reflect"
	"sync/atomic"
)

// Objects whose operations in observed code depend on whether they crossed
// the boundary: channels (chan.go: a crossed channel's operations are
// outcalls) and sync primitives reached through pointers (syncobj.go: a
// crossed object's methods are outcalls). One mechanism for both: an
// object crossed once it has an object ID (capture: encoded at an event;
// replay: encoded, decoded or stood in for), which the object table
// answers by address (a weak pointer per entry, so a new object at the
// address of a collected one has not crossed). When such an object gets
// its ID, noteCrossed counts it per kind, so that the common case, nothing
// of the kind ever crossed, costs one atomic load per operation (Private,
// Chan, Select) and never takes the object table's lock.
var crossings struct {
	sync  atomic.Int32 // sync primitives that got an object ID so far
	chans atomic.Int32 // channels that got an object ID so far
}

// noteCrossed counts v, a reference that just got its object ID, if it is
// a channel or a pointer to a sync primitive.
func noteCrossed(v reflect.Value) {
	for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	switch {
	case !v.IsValid():
	case v.Kind() == reflect.Chan:
		crossings.chans.Add(1)
	case syncType(v.Type()):
		crossings.sync.Add(1)
	}
}

// crossed reports whether x (a channel, or a pointer to a sync primitive)
// has an object ID: it crossed the boundary.
func crossed(x any) bool {
	p := ptrOf(x)
	if p == nil {
		return false
	}
	if replaying {
		play.objMu.Lock()
		_, ok := play.ids[p]
		play.objMu.Unlock()
		return ok
	}
	// knownLocked, heap objects first (the common case).
	o := captureObjects
	o.mu.Lock()
	e, ok := o.ids[uintptr(p)]
	if ok {
		ok = e.wp.Value() == (*byte)(p)
	} else {
		_, ok = o.code[uintptr(p)]
	}
	o.mu.Unlock()
	return ok
}
