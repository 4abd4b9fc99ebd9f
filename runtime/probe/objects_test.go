package probe

import (
	"reflect"
	"runtime"
	"sync"
	"testing"
	"unsafe"
	"weak"
)

type objectsTestT struct{ a, b int64 }

// TestObjectIDs: an object keeps its ID while it lives, whoever asks and
// however often; distinct live objects (and distinct fields of one) get
// distinct IDs; a new object at the address of a collected one is a new
// object, not the old one again.
func TestObjectIDs(t *testing.T) {
	o := newObjects()
	id := func(p any) (uint64, bool) {
		v := reflect.ValueOf(p)
		got, first, _ := o.ID(v, "T", true)
		return got, first
	}
	const n = 64
	objs := make([]*objectsTestT, n)
	for i := range objs {
		objs[i] = &objectsTestT{a: int64(i)}
	}
	want := make([]uint64, n)
	for i, p := range objs {
		var first bool
		want[i], first = id(p)
		if !first {
			t.Fatalf("object %d: first sight not reported as first", i)
		}
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Go(func() {
			for r := 0; r < 50; r++ {
				for i, p := range objs {
					if got, first := id(p); got != want[i] || first {
						t.Errorf("object %d: ID %d (first %v), want %d", i, got, first, want[i])
						return
					}
				}
				runtime.GC()
			}
		})
	}
	wg.Wait()
	seen := map[uint64]bool{}
	for _, w := range want {
		if seen[w] {
			t.Fatalf("two live objects share ID %d", w)
		}
		seen[w] = true
	}
	if a, _ := id(&objs[0].a); a == want[0] {
		// &objs[0].a is objs[0] itself: same pointer, same ID, as before.
	} else {
		t.Errorf("a pointer to the first field got ID %d, the struct %d (same address)", a, want[0])
	}
	if b, _ := id(&objs[0].b); b == want[0] {
		t.Errorf("a pointer to the second field got the struct's ID %d", b)
	}

	// An entry whose object is gone (its cleanup not run yet) must not
	// answer for a new object at its address: simulated by an entry at y's
	// address made from another object's weak pointer.
	x, y := &objectsTestT{}, &objectsTestT{}
	o.mu.Lock()
	o.ids.put(uintptr(unsafe.Pointer(y)), objEntry{wp: weak.Make((*byte)(unsafe.Pointer(x))), id: 999})
	o.mu.Unlock()
	if got, first := id(y); got == 999 || !first {
		t.Errorf("a stale entry answered for the object now at its address: ID %d (first %v)", got, first)
	}
	runtime.KeepAlive(x)

	// Address reuse: drop an object, collect it, allocate same-sized objects
	// until one lands at its address.
	p := &objectsTestT{a: -1}
	old, _ := id(p)
	addr := uintptr(unsafe.Pointer(p))
	p = nil
	runtime.GC()
	runtime.GC()
	var keep []*objectsTestT
	for i := 0; i < 1<<16; i++ {
		q := &objectsTestT{a: int64(i)}
		if uintptr(unsafe.Pointer(q)) == addr {
			got, first := id(q)
			if got == old || !first {
				t.Fatalf("a new object at a collected object's address got ID %d (first %v); the old one had %d", got, first, old)
			}
			runtime.KeepAlive(objs)
			return
		}
		keep = append(keep, q)
	}
	runtime.KeepAlive(keep)
	t.Skip("the collected object's address was not reused in 65536 allocations")
}

var escapedObject *objectsTestT

// onStack tells the calling goroutine's stack from the heap: the heap
// fast path of objects.lookup must never make a weak pointer to a stack
// address (fatal).
func TestOnStack(t *testing.T) {
	var local [16]byte // its address is only passed as unsafe.Pointer to onStack: stays on the stack
	if lo, hi := stackBounds(); lo == 0 && hi == ^uintptr(0) {
		t.Skip("no stack bounds on this architecture: every first sight takes the AddCleanup path")
	}
	if !onStack(unsafe.Pointer(&local)) {
		t.Error("a local variable is not on the stack")
	}
	h := new(objectsTestT)
	escapedObject = h // to the heap
	if onStack(unsafe.Pointer(h)) {
		t.Error("a heap object is on the stack")
	}
	runtime.KeepAlive(local)
}

// The first sight of a heap object in a known heap region makes no
// cleanup; such entries are removed by the table's own sweeping once their
// objects are collected, so the table stays proportional to the live
// objects however many short-lived objects (a context per request) it has
// numbered.
func TestObjectEntriesOfCollectedObjectsGo(t *testing.T) {
	o := newObjects()
	id := func(p any) uint64 {
		got, _, _ := o.ID(reflect.ValueOf(p), "T", true)
		return got
	}
	keep := make([]*objectsTestT, 16)
	for i := range keep {
		keep[i] = &objectsTestT{a: int64(i)}
		id(keep[i])
	}
	want := make([]uint64, len(keep))
	for i, p := range keep {
		want[i] = id(p)
	}
	if len(o.heapRegions) == 0 {
		t.Fatal("no heap region known after numbering heap objects")
	}
	const rounds, perRound = 20, 1000
	for r := 0; r < rounds; r++ {
		for i := 0; i < perRound; i++ {
			id(&objectsTestT{a: int64(i)})
		}
		runtime.GC()
	}
	o.mu.Lock()
	entries, queued := o.ids.len(), len(o.queue)-o.queueHead
	o.mu.Unlock()
	if queued == 0 {
		t.Fatal("no entry was made by the heap fast path")
	}
	// Without sweeping: rounds*perRound entries. With it: the last round's
	// (not collected yet when numbered) plus the live ones, twice at most.
	if limit := 2*(perRound+len(keep)) + 64; entries > limit {
		t.Errorf("%d entries after numbering %d short-lived objects, want <= %d", entries, rounds*perRound, limit)
	}
	for i, p := range keep {
		if got := id(p); got != want[i] {
			t.Errorf("live object %d: ID %d, was %d", i, got, want[i])
		}
	}
}

// TestHeapObjectAtFormerStackAddress: the code table keeps the addresses
// of stack variables seen through the slow path (never freed, it assumes);
// goroutine stacks live in the heap's arenas, so such an address may hold
// a heap object later. Its first sight is a new object with its contents,
// not the stack variable's ID again (simulated by a code table entry at a
// heap object's address).
func TestHeapObjectAtFormerStackAddress(t *testing.T) {
	o := newObjects()
	id := func(p any) (uint64, bool) {
		got, first, _ := o.ID(reflect.ValueOf(p), "T", true)
		return got, first
	}
	objs := make([]*objectsTestT, 2)
	for i := range objs {
		objs[i] = &objectsTestT{a: int64(i)}
	}
	id(objs[0]) // its region becomes known
	o.mu.Lock()
	known := o.inHeapRegion(unsafe.Pointer(objs[1]))
	o.code[uintptr(unsafe.Pointer(objs[1]))] = 777
	o.mu.Unlock()
	if !known {
		t.Skip("the two objects are not in one heap region")
	}
	if got, first := id(objs[1]); got == 777 || !first {
		t.Errorf("a heap object at an address the code table holds got ID %d (first %v), want a new object", got, first)
	}
}
