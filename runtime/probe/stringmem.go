package probe

import (
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"
)

// Slices over a string's memory (docs/value-encoding.md, "Slices as
// views"). A slice crosses the boundary as a view of its backing array, by
// the array's identity, while a string crosses by value, without the
// identity of its memory: replay decodes a string argument anew at each
// incall. Where observed code makes a slice over a string's bytes
// (goldmark's `unsafe.Slice(unsafe.StringData(s), len(s))`, gjson's
// stringBytes, which reads the string's header through `unsafe.Pointer(&s)`)
// and the slice crosses, two calls with one string literal give views of one
// array in the capture (the literal's read-only data) and of two in replay,
// a false divergence ("different arguments" at gjson's `pretty.Ugly`).
//
// The memory of a string cannot be written, so a view of it has no
// identity that the program can observe through the slice, save by
// comparing addresses: such a slice is written by value. The transform
// makes the observed code mark the string where it takes its memory
// (StringMem, StringAt); a slice crossing later whose array ends where a
// marked string ends is written by value. The observed code makes the marks
// in replay too, over the strings replay decoded, so capture and replay
// agree on which slices cross by value.
//
// Not an array that was numbered before the mark: a string may view the
// memory of a byte slice that crossed (gjson's GetBytes reads its []byte
// argument as a string, `*(*string)(unsafe.Pointer(&json))`, whose memory
// fillIndex then takes): that array keeps its identity, which the capture's
// caller's array and replay's array of its ID both have, where a mark would
// make the capture write the caller's next call's argument by value and
// replay, which decoded it into the array of that ID, not.

// LastStringViewFormat is the last log format version whose capture wrote
// slices over a marked string's memory as views; replay of such a log
// writes them as views too.
const LastStringViewFormat = 11

// stringMems is the set of marked strings, by the end of their bytes. An
// entry of a heap string holds a weak pointer into it, so that it never
// keeps the string alive and stops counting once the string is collected,
// before an array can come to end there.
var stringMems struct {
	mu      sync.Mutex
	m       map[uintptr]stringMem
	starts  map[uintptr]uintptr // the start of a marked string -> its end, a key of m
	regions map[uintptr]bool    // address >> heapRegionShift: true for heap memory
	swept   int                 // len(m) after the last sweep of collected entries
	n       atomic.Int32        // 1 once anything was marked: the common case asks nothing
}

type stringMem struct {
	wp     weak.Pointer[byte] // zero for memory outside the heap (read-only data)
	static bool
}

func (e stringMem) alive() bool { return e.static || e.wp.Value() != nil }

// StringMem marks the memory of s, whose bytes the observed code is about
// to take (unsafe.StringData(s)), and returns s.
func StringMem(s string) string {
	markString(s)
	return s
}

// StringAt marks the memory of the string p points to (the observed code
// converts `&s` to an unsafe.Pointer to read the string's header), and
// returns p.
func StringAt(p unsafe.Pointer) unsafe.Pointer {
	if p != nil {
		markString(*(*string)(p))
	}
	return p
}

func markString(s string) {
	if len(s) == 0 {
		return
	}
	data := unsafe.Pointer(unsafe.StringData(s))
	if onStack(data) {
		return // a slice of stack memory is written by value anyway
	}
	end := uintptr(data) + uintptr(len(s))
	sm := &stringMems
	sm.mu.Lock()
	defer sm.mu.Unlock()
	if e, ok := sm.m[end]; ok && e.alive() {
		// A string ending where a marked one ends lies in its memory
		// (a suffix): its start counts too.
		sm.starts[uintptr(data)] = end
		return
	}
	if sm.m == nil {
		sm.m = map[uintptr]stringMem{}
		sm.starts = map[uintptr]uintptr{}
		sm.regions = map[uintptr]bool{}
	}
	r := uintptr(data) >> heapRegionShift
	heap, known := sm.regions[r]
	if !known {
		// A 4 MiB region is all heap arena or none of it.
		heap = heapMemory(data)
		sm.regions[r] = heap
	}
	var e stringMem
	if heap {
		e.wp = weak.Make((*byte)(data))
	} else {
		e.static = true
	}
	if len(sm.m) >= 2*sm.swept+64 {
		for k, o := range sm.m {
			if !o.alive() {
				delete(sm.m, k)
			}
		}
		for k, end := range sm.starts {
			if _, ok := sm.m[end]; !ok {
				delete(sm.starts, k)
			}
		}
		sm.swept = len(sm.m)
	}
	sm.m[end] = e
	sm.starts[uintptr(data)] = end
	sm.n.Store(1)
}

// heapMemory reports whether p points into Go's heap: runtime.AddCleanup
// gives a package variable no cleanup and panics for read-only data.
func heapMemory(p unsafe.Pointer) (heap bool) {
	defer func() {
		if recover() != nil {
			heap = false
		}
	}()
	cl := runtime.AddCleanup((*byte)(p), func(struct{}) {}, struct{}{})
	if cl == (runtime.Cleanup{}) {
		return false
	}
	cl.Stop()
	return true
}

// stringMemory reports whether the slice at data of capacity c (> 0) of
// elements of type elem ends where a marked string ends: it is written by
// value, in the capture and in replay of a log after LastStringViewFormat.
func stringMemory(data unsafe.Pointer, c int, elem reflect.Type) bool {
	sm := &stringMems
	if sm.n.Load() == 0 || data == nil || c <= 0 {
		return false
	}
	if p := play; p != nil && p.format <= LastStringViewFormat {
		return false
	}
	end := uintptr(data) + uintptr(c)*elem.Size()
	sm.mu.Lock()
	defer sm.mu.Unlock()
	e, ok := sm.m[end]
	if !ok {
		return false
	}
	if !e.alive() {
		delete(sm.m, end)
		return false
	}
	return true
}

// stringStart reports whether p is the start of a marked string's memory
// (gjson's fillIndex reads `uintptr(rhdr.data) - uintptr(jhdr.data)` from
// the headers of two strings it marked): the address is read natively, not
// answered from the log (AddressOf). The string crossed by value, so its
// memory is no object the log names the same way in capture and replay;
// what code computes from such addresses, the distance between two views of
// one string's memory, is the same in both.
func stringStart(p unsafe.Pointer) bool {
	sm := &stringMems
	if sm.n.Load() == 0 || p == nil {
		return false
	}
	if pl := play; pl != nil && pl.format <= LastStringViewFormat {
		return false
	}
	sm.mu.Lock()
	defer sm.mu.Unlock()
	end, ok := sm.starts[uintptr(p)]
	if !ok {
		return false
	}
	e, ok := sm.m[end]
	if !ok || !e.alive() {
		delete(sm.starts, uintptr(p))
		return false
	}
	return true
}
