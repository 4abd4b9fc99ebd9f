package probe

import (
	"reflect"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Memory of another package's objects that an incall hands the observed
// code to reflect over (docs/design/reflection.md): toml's
// `Decode(s, &x)` with `x` a struct of the test. The capture records the
// object with its contents (EncodeReflected), and replay makes a real
// object with them, which the replayed code reflects over natively and
// whose contents the RETURN_IN compares (Written). The code may hand a
// pointer into that object to an outcall that writes it: toml calls
// `UnmarshalText` on `&x.D` (a time.Time field) and `UnmarshalTOML` on
// `&x` itself (a method of the test's type). Replay answers that outcall
// from the log, so unless the log holds what the callee wrote, the object
// keeps its old contents in replay and the RETURN_IN differs on unchanged
// code.
//
// So the object's memory counts as owned (OutPointeeIfOwned): an outcall
// whose receiver or argument points into it records the pointee after the
// call, and replay writes it back. EncodeReflected marks the memory in the
// capture and, re-encoding the incall's arguments, in replay, where the
// object is replay's rebuilt one: both sides agree on every outcall whether
// the log holds its pointee. A pointer into the object (a field's address,
// `&x.D`) is in it, not only its start.

type rebuiltSpan struct {
	start, end uintptr
	wp         weak.Pointer[byte] // made from start: the object is still the one marked
}

var rebuilt struct {
	mu      sync.Mutex
	spans   []rebuiltSpan // sorted by start
	maxSize uintptr       // the largest span: a lookup looks back no further
	swept   int           // len(spans) after the last sweep of collected objects
	n       atomic.Int32  // 1 once anything was marked
}

// markRebuilt marks the memory x points to, when x (a reflected argument)
// is a pointer, or an interface or reflect.Value holding one, to a value of
// non-zero size of a type of no observed package (an observed type's
// methods are incalls, and its state the set's own) and no sync value.
// Memory on a goroutine's stack is not marked: reflected arguments reach
// the code through an interface or a pointer parameter, which puts them on
// the heap, so none is expected there. Nor is memory that is neither a heap
// object nor a package variable (a reflect.Type's *rtype in read-only data,
// go-toml's tests handing `reflect.TypeOf(err)` to `assert.Equal`): no
// outcall writes it, and weak.Make is fatal on it.
func markRebuilt(x any) {
	rv, ok := x.(reflect.Value)
	if !ok {
		rv = reflect.ValueOf(x)
	}
	if !rv.IsValid() {
		return
	}
	if rv.Kind() == reflect.Interface && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return
	}
	et := rv.Type().Elem()
	size := et.Size()
	if size == 0 || syncValue(et) || value.IsObservedType(et) {
		return
	}
	markSpan(rv.UnsafePointer(), size)
}

// markSpan marks the size bytes at p, the start of a heap object or a
// package variable, as markRebuilt does.
func markSpan(p unsafe.Pointer, size uintptr) {
	start := uintptr(p)
	if markedAlready(p, size) {
		return
	}
	if onStack(p) || !weakable(p) {
		return
	}
	rebuilt.mu.Lock()
	defer rebuilt.mu.Unlock()
	i := sort.Search(len(rebuilt.spans), func(i int) bool { return rebuilt.spans[i].start >= start })
	if i < len(rebuilt.spans) && rebuilt.spans[i].start == start {
		if sp := &rebuilt.spans[i]; weakIs(sp.wp, p) {
			if sp.end < start+size {
				sp.end = start + size
			}
		} else {
			*sp = rebuiltSpan{start: start, end: start + size, wp: weak.Make((*byte)(p))}
		}
	} else {
		rebuilt.spans = append(rebuilt.spans, rebuiltSpan{})
		copy(rebuilt.spans[i+1:], rebuilt.spans[i:])
		rebuilt.spans[i] = rebuiltSpan{start: start, end: start + size, wp: weak.Make((*byte)(p))}
	}
	if size > rebuilt.maxSize {
		rebuilt.maxSize = size
	}
	rebuilt.n.Store(1)
	if len(rebuilt.spans) >= 2*rebuilt.swept+64 {
		live := rebuilt.spans[:0]
		for _, sp := range rebuilt.spans {
			if !weakFreed(sp.wp) {
				live = append(live, sp)
			}
		}
		clear(rebuilt.spans[len(live):])
		rebuilt.spans = live
		rebuilt.swept = len(live)
	}
}

// markedAlready extends the span of the object at p, when it is marked
// already and still the one marked, to size bytes, and reports whether it
// was: a slice grown in place by reflect.Append one element at a time, or
// a pointer a reflected argument brings in at every call, costs a lookup
// and no weakable check.
func markedAlready(p unsafe.Pointer, size uintptr) bool {
	start := uintptr(p)
	rebuilt.mu.Lock()
	defer rebuilt.mu.Unlock()
	i := sort.Search(len(rebuilt.spans), func(i int) bool { return rebuilt.spans[i].start >= start })
	if i == len(rebuilt.spans) || rebuilt.spans[i].start != start || !weakIs(rebuilt.spans[i].wp, p) {
		return false
	}
	if sp := &rebuilt.spans[i]; sp.end < start+size {
		sp.end = start + size
		if size > rebuilt.maxSize {
			rebuilt.maxSize = size
		}
	}
	return true
}

// weakable reports whether weak.Make accepts p: a heap object or a package
// variable. runtime.AddCleanup panics, where weak.Make throws, on other
// memory; the cleanup it registers is stopped at once.
func weakable(p unsafe.Pointer) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	runtime.AddCleanup((*byte)(p), func(struct{}) {}, struct{}{}).Stop()
	return true
}

// inRebuilt reports whether p, a pointer the caller holds, points into
// memory markRebuilt marked, of an object that is still the one marked.
func inRebuilt(p unsafe.Pointer) bool { return inRebuiltAddr(uintptr(p)) }

func inRebuiltAddr(a uintptr) bool {
	if rebuilt.n.Load() == 0 {
		return false
	}
	rebuilt.mu.Lock()
	defer rebuilt.mu.Unlock()
	i := sort.Search(len(rebuilt.spans), func(i int) bool { return rebuilt.spans[i].start > a })
	for i--; i >= 0; i-- {
		sp := rebuilt.spans[i]
		if a-sp.start >= rebuilt.maxSize {
			return false
		}
		if a < sp.end && weakAt(sp.wp, sp.start) {
			return true
		}
	}
	return false
}

// weakAt reports whether wp, made from a pointer to a, still refers to the
// object it was made from (weakIs for an address the caller holds a pointer
// into, not to).
func weakAt(wp weak.Pointer[byte], a uintptr) bool {
	if rawWeak {
		return weakAddr(wp) == a
	}
	return uintptr(unsafe.Pointer(wp.Value())) == a
}
