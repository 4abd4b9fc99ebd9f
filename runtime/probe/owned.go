package probe

import (
	"reflect"
	"sync"
	"sync/atomic"
	"weak"
)

// Addresses the observed code owns that reach an outcall through a
// parameter or a field the transform cannot decide
// (docs/design/boundary-model.md, "Out-parameters"): bitset's exported
// `WriteTo(stream io.Writer)`, which external callers give their own
// writer and `MarshalBinary` gives `&buf`, or spew's `fdump(c, w, ...)`,
// which keeps `w` in a struct field and is given `os.Stdout`, the caller's
// writer or a local `&buf`. Where the observed code passes an owned address
// (`&buf`, `new(T)`, `&T{}`) to such a parameter of its own function, the
// transform marks it (Own); an outcall that gets, as its interface receiver
// or as an argument, an address so marked records the pointee after the
// call (OutPointeeIfOwned) and replay writes it back (SetOutPointeeIfOwned),
// as for an address the transform can see is owned. The marks are made by
// the observed code, which runs in replay too, so capture and replay agree
// on every outcall whether the log holds its pointee: a pointer that came
// from outside (a placeholder in replay) is never marked.

// ownedAddrs is the set of marked addresses: each entry holds a weak
// pointer made from its address, so it never keeps the object alive and
// stops counting when the object is collected (weakIs), before another
// object can take the address.
var ownedAddrs struct {
	mu    sync.Mutex
	m     map[uintptr]weak.Pointer[byte]
	swept int          // len(m) after the last sweep of collected entries
	n     atomic.Int32 // 1 once anything was marked: the common case asks nothing
}

// Own marks p, an address the observed code owns that it passes to a
// parameter of its own function whose other callers may pass addresses
// that came from outside, and returns it. A nil pointer, a pointer to a
// zero-size value (which holds nothing to write) and a sync value are not
// marked.
func Own[P any](p P) P {
	rv := reflect.ValueOf(p)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Type().Elem().Size() == 0 || syncValue(rv.Type().Elem()) {
		return p
	}
	a := rv.UnsafePointer()
	ownedAddrs.mu.Lock()
	defer ownedAddrs.mu.Unlock()
	if ownedAddrs.m == nil {
		ownedAddrs.m = map[uintptr]weak.Pointer[byte]{}
		ownedAddrs.n.Store(1)
	}
	if wp, ok := ownedAddrs.m[uintptr(a)]; ok && weakIs(wp, a) {
		return p
	}
	if len(ownedAddrs.m) >= 2*ownedAddrs.swept+64 {
		for k, wp := range ownedAddrs.m {
			if weakFreed(wp) {
				delete(ownedAddrs.m, k)
			}
		}
		ownedAddrs.swept = len(ownedAddrs.m)
	}
	ownedAddrs.m[uintptr(a)] = weak.Make((*byte)(a))
	return p
}

// owned reports whether x, an outcall's receiver or argument, is a pointer
// (or an interface holding one) that Own marked, to a value of another
// package than an observed one (an observed type's methods are incalls
// when external code calls them, and its state is the observed code's).
//
// Memory of an object a reflected argument brought into the set
// (markRebuilt) counts too, at its start or inside it, except in replay of
// a log of LastUnrebuiltOutFormat or before, whose capture did not count it.
func owned(x any) bool {
	if ownedAddrs.n.Load() == 0 && rebuilt.n.Load() == 0 {
		return false
	}
	rv := reflect.ValueOf(x)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	if Observed(x) {
		return false
	}
	a := rv.UnsafePointer()
	if ownedAddrs.n.Load() != 0 {
		ownedAddrs.mu.Lock()
		wp, ok := ownedAddrs.m[uintptr(a)]
		ownedAddrs.mu.Unlock()
		if ok && weakIs(wp, a) {
			return true
		}
	}
	return writesBackRebuilt() && inRebuilt(a)
}

// OutPointeeIfOwned appends the pointee of x after the outcall when x is an
// address Own marked (capture); otherwise nothing.
func OutPointeeIfOwned(s *Stream, x any) {
	if owned(x) {
		Pointee(s, x)
		noteOwned(s, x) // kept.go
	} else {
		heldOwned(x, func(p any) { Pointee(s, p) })
	}
	keptOut(s, x) // kept.go
}

// SetOutPointeeIfOwned writes the recorded pointee back through x when x is
// an address Own marked (replay), as the capture recorded it.
func SetOutPointeeIfOwned(s *Stream, x any) {
	if owned(x) {
		if writesBackMarked() {
			SetPointee(s, x)
		}
		noteOwned(s, x) // kept.go
	} else {
		heldOwned(x, func(p any) { SetPointee(s, p) })
	}
	setKeptOut(s, x) // kept.go
}

// heldOwnedDepth bounds how deep heldOwned looks into structs and arrays
// held by value.
const heldOwnedDepth = 4

// heldOwned calls f, in field and element order, with each non-nil pointer
// that x, a receiver or argument held by value (a struct or an array,
// directly or in an interface), holds in its fields or elements, by value,
// and that points to owned memory (owned): a test's marshaler of a value
// type counting its calls through a pointer field (go-toml's
// flakyMarshaler{calls: &calls}, whose *int an incall's reflected argument
// brought in) writes that memory in a method replay answers from the log.
// Pointers behind pointers, slices, maps and interfaces are not followed.
// Logs of LastUnmadeOutFormat or before hold none of these pointees.
func heldOwned(x any, f func(p any)) {
	if ownedAddrs.n.Load() == 0 && rebuilt.n.Load() == 0 || !writesBackMade() {
		return
	}
	rv := reflect.ValueOf(x)
	if k := rv.Kind(); k != reflect.Struct && k != reflect.Array {
		return
	}
	var walk func(v reflect.Value, depth int)
	walk = func(v reflect.Value, depth int) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				return
			}
			// A pointer of its own, not read-only where v was read through
			// an unexported field, to write through in replay.
			p := reflect.NewAt(v.Type().Elem(), v.UnsafePointer()).Interface()
			if owned(p) {
				f(p)
			}
		case reflect.Struct:
			if depth < heldOwnedDepth {
				for i := range v.NumField() {
					walk(v.Field(i), depth+1)
				}
			}
		case reflect.Array:
			if k := v.Type().Elem().Kind(); k != reflect.Pointer && k != reflect.Struct && k != reflect.Array {
				return // no pointer held by value ([64]byte)
			}
			if depth < heldOwnedDepth {
				for i := range v.Len() {
					walk(v.Index(i), depth+1)
				}
			}
		}
	}
	walk(rv, 0)
}

// syncValue reports whether t is a type of sync or sync/atomic, whose
// values are never out-parameters.
func syncValue(t reflect.Type) bool {
	switch t.PkgPath() {
	case "sync", "sync/atomic":
		return true
	}
	return false
}
