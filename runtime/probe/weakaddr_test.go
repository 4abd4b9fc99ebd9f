package probe

import (
	"runtime"
	"testing"
	"unsafe"
	"weak"
)

var weakTestSink *objectsTestT

// TestWeakIs: the identity check of the object tables answers for the
// object a weak pointer was made from while it lives (also through a
// pointer to its second field, and for a package variable), never for
// another object, and not once the object was collected, also when a new
// object sits at its address; both with the handle read directly and
// through weak.Pointer.Value.
func TestWeakIs(t *testing.T) {
	if !rawWeak {
		t.Error("rawWeak is false: weak.Pointer's representation changed, and every identity check takes weak.Pointer.Value (slow); update weakAddr")
	}
	saved := rawWeak
	defer func() { rawWeak = saved }()
	for _, raw := range []bool{true, false} {
		rawWeak = raw && saved
		live, other := &objectsTestT{a: 1}, &objectsTestT{a: 2}
		weakTestSink = other
		wp := weak.Make((*byte)(unsafe.Pointer(live)))
		if !weakIs(wp, unsafe.Pointer(live)) || weakFreed(wp) {
			t.Errorf("raw=%v: a live object is not the one its weak pointer was made from", raw)
		}
		if weakIs(wp, unsafe.Pointer(other)) {
			t.Errorf("raw=%v: another live object is taken for the weak pointer's", raw)
		}
		field := unsafe.Pointer(&live.b)
		if wf := weak.Make((*byte)(field)); !weakIs(wf, field) || weakIs(wf, unsafe.Pointer(live)) {
			t.Errorf("raw=%v: the weak pointer of a field answers wrongly", raw)
		}
		gv := unsafe.Pointer(&weakProbe)
		if wg := weak.Make((*byte)(gv)); !weakIs(wg, gv) || weakFreed(wg) {
			t.Errorf("raw=%v: a package variable is not the one its weak pointer was made from", raw)
		}
		if weakIs(weak.Pointer[byte]{}, unsafe.Pointer(live)) || !weakFreed(weak.Pointer[byte]{}) {
			t.Errorf("raw=%v: the nil weak pointer answers for an object", raw)
		}
		runtime.KeepAlive(live)

		// Collected, and a new object at its address.
		addr, dead := weakOfCollected()
		runtime.GC()
		runtime.GC()
		if !weakFreed(dead) {
			t.Errorf("raw=%v: the weak pointer of a collected object is not freed", raw)
		}
		var keep []*objectsTestT
		reused := false
		for i := 0; i < 1<<16 && !reused; i++ {
			q := &objectsTestT{a: int64(i)}
			keep = append(keep, q)
			if uintptr(unsafe.Pointer(q)) == addr {
				reused = true
				if weakIs(dead, unsafe.Pointer(q)) {
					t.Errorf("raw=%v: a new object at a collected object's address is taken for it", raw)
				}
			}
		}
		runtime.KeepAlive(keep)
		if !reused {
			t.Logf("raw=%v: the collected object's address was not reused in 65536 allocations", raw)
		}
	}
}

//go:noinline
func weakOfCollected() (uintptr, weak.Pointer[byte]) {
	p := &objectsTestT{a: -1}
	weakTestSink = p // on the heap
	weakTestSink = nil
	return uintptr(unsafe.Pointer(p)), weak.Make((*byte)(unsafe.Pointer(p)))
}
