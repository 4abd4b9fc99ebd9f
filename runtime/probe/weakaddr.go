package probe

import (
	"runtime"
	"sync/atomic"
	"unsafe"
	"weak"
)

// weakIs reports whether wp, made by weak.Make from a pointer to the object
// at p, still refers to the object at p, for a p the caller holds (a live
// object): whether the object the table met at this address is the one
// there now.
//
// weak.Pointer.Value answers that too, but it is the largest part of an
// identity check in place (profiled with lab/demo/shop_profile.sh): it pins the
// M, finds the span (spanOfHeap), sweeps it if needed, and shades the
// object during a collection's mark phase (which also keeps the object
// alive through that collection). None of that is needed to compare
// addresses. A weak pointer holds the address of the runtime's handle, a
// word that holds the object's address until the sweeper frees the object,
// then 0; the sweeper clears it before the memory can be allocated again.
// So if the handle still holds p, the object wp was made from has not been
// freed, and the live object at p is that object; if the object was freed
// and another allocated at p, the handle was cleared before that
// allocation, which happened before the caller got its pointer to the new
// object. (A dead object not yet swept still holds its address, but the
// caller, holding a live pointer to p, cannot be looking at a dead object.)
//
// This reads the weak pointer's representation (one pointer to the handle,
// which starts with the address), which the weak package does not promise;
// rawWeak checks it once at start-up, and every check falls back to Value
// if it does not hold (TestWeakIs covers a collected object and a reused
// address either way).
func weakIs(wp weak.Pointer[byte], p unsafe.Pointer) bool {
	if rawWeak {
		return weakAddr(wp) == uintptr(p)
	}
	return wp.Value() == (*byte)(p)
}

// weakIsAddr is weakIs for an address held as a number (the start of a
// heap object that findObject gave).
func weakIsAddr(wp weak.Pointer[byte], a uintptr) bool {
	if rawWeak {
		return weakAddr(wp) == a
	}
	return uintptr(unsafe.Pointer(wp.Value())) == a
}

// weakFreed reports whether the object wp refers to has certainly been
// freed (its handle cleared by the sweeper); false for one that is alive
// or dead but not swept yet. Tables use it to drop entries of collected
// objects without sweeping spans on their behalf.
func weakFreed(wp weak.Pointer[byte]) bool {
	if rawWeak {
		return weakAddr(wp) == 0
	}
	return wp.Value() == nil
}

// weakAddr is the address in wp's handle (0: freed, or a nil weak pointer).
func weakAddr(wp weak.Pointer[byte]) uintptr {
	h := *(*unsafe.Pointer)(unsafe.Pointer(&wp))
	if h == nil {
		return 0
	}
	return atomic.LoadUintptr((*uintptr)(h))
}

// rawWeak: weak pointers have the representation weakAddr reads (one word,
// a pointer to a handle holding the object's address). Checked on a fresh
// heap object and on a package variable.
var rawWeak = weakLayoutHolds()

var weakProbe byte

func weakLayoutHolds() bool {
	if unsafe.Sizeof(weak.Pointer[byte]{}) != unsafe.Sizeof(uintptr(0)) {
		return false
	}
	x := new([4]uintptr)
	p := (*byte)(unsafe.Pointer(&x[1])) // an interior pointer, as a field's
	ok := weakAddr(weak.Make(p)) == uintptr(unsafe.Pointer(p)) &&
		weakAddr(weak.Make(&weakProbe)) == uintptr(unsafe.Pointer(&weakProbe)) &&
		weakAddr(weak.Pointer[byte]{}) == 0
	runtime.KeepAlive(x)
	return ok
}
