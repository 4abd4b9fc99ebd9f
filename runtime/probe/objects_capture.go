package probe

import (
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// objects is the capture's object ID table: it never keeps an object
// alive, and an entry goes when its object is collected.
//
// Heap objects are keyed by address, and each entry holds a weak pointer
// made from that address: an entry is the object at the address only while
// its weak pointer still yields it (the collector clears weak pointers
// before the memory can be reused). So an object seen before costs a map
// lookup and a weak pointer check, and an object's first sight makes a weak
// pointer (a runtime lock and an allocation).
//
// weak.Make is fatal on pointers that are neither heap objects nor package
// variables (a goroutine stack, read-only data such as a reflect.Type's
// *rtype, memory from mmap). runtime.AddCleanup tells them apart with a
// panic we can recover, but costs as much again as the weak pointer, on
// every first sight, and later a cleanup run per collected object. So it is
// asked only about pointers outside the heap regions known so far
// (heapRegions: 4 MiB-aligned address ranges in which AddCleanup found a
// heap object; the heap's arenas are at least that large and aligned and
// hold nothing but heap spans and goroutine stacks, and no valid pointer
// reaches into another goroutine's stack). Entries made that way have a
// cleanup that removes them; the others are removed by sweepSomeLocked,
// which checks two queued entries per first sight.
type objects struct {
	mu   sync.Mutex
	ids  addrTable          // heap objects and package variables, by address
	code map[uintptr]uint64 // function code pointers and other non-heap pointers (never freed)
	next uint64

	// codeSize is objEntry.size for the code table's objects seen through
	// pointers (package variables).
	codeSize map[uintptr]uintptr

	heapRegions map[uintptr]struct{} // address >> heapRegionShift
	lastRegion  uintptr              // 1 + the region of heapRegions last found (most first sights are in it)
	queue       []queuedEntry        // entries without a cleanup, oldest first from queueHead
	queueHead   int

	lookups uint64 // calls of lookup, for tests of the streams' caches in front of the table

	// types holds, while checkpoints are on (checkpoint.go), the type of
	// each heap object in ids, as the largest type it was seen as: a
	// checkpoint writes every live observed object with its contents.
	types map[uintptr]reflect.Type

	// arrays: the backing arrays of slices that crossed (arrays.go).
	arrays captureArrays

	// Objects inside objects (objects_located.go): the Locations each
	// first sight's reference is to carry, taken by Located (nties: how
	// many IDs have some), and the pointers into heap objects that wait for
	// an object at the heap object's start, by that start.
	ties       map[uint64][]value.Location
	nties      atomic.Int32
	parts      map[uintptr][]part
	nparts     int
	partsSwept int
}

// heapRegionShift: 4 MiB, the smallest heap arena of any platform
// (runtime.heapArenaBytes: 64 MiB on 64-bit Unix, 4 MiB on Windows and
// 32-bit systems).
const heapRegionShift = 22

type queuedEntry struct {
	addr uintptr
	wp   weak.Pointer[byte]
}

type objEntry struct {
	wp weak.Pointer[byte]
	id uint64
	// size is the size of the largest type the object was seen as through
	// a pointer: seen as a larger one (a struct whose first field crossed
	// first), the object is new again for its contents and its watched
	// fields (TestObjectSeenAsLargerType; replay's player applies the same
	// rule).
	size uintptr
	// unwatched: the object was numbered by an orphan event (orphanContext)
	// and its fields are not watched (yet): replay skips those events and
	// never makes the object, so a WRITE_IN of its fields could not be
	// replayed (TestOrphanBornObjectWatchedOnlyOnceAnIncallNamesIt). The
	// first sight by an event replay does
	// replay starts watching it, with that moment's shadow.
	unwatched bool
	// located: the log says where the object lies in another one
	// (objects_located.go).
	located bool
}

// pointeeSize is the size of the value v points to (0 for other kinds).
func pointeeSize(v reflect.Value) uintptr {
	if v.Kind() != reflect.Pointer {
		return 0
	}
	return v.Type().Elem().Size()
}

var captureObjects = newObjects()

func newObjects() *objects {
	return &objects{code: map[uintptr]uint64{}, codeSize: map[uintptr]uintptr{}, heapRegions: map[uintptr]struct{}{}}
}

// knownLocked returns the ID of the object at p if it has one.
func (o *objects) knownLocked(p unsafe.Pointer) (uint64, bool) {
	if id, ok := o.code[uintptr(p)]; ok {
		return id, true
	}
	if e := o.ids.find(uintptr(p)); e != nil && weakIs(e.wp, p) {
		return e.id, true
	}
	return 0, false
}

func (o *objects) ID(v reflect.Value, name string, isWeak bool) (uint64, bool, string) {
	if !isWeak {
		if clo, ok := closureIdentity(v); ok {
			v, isWeak = clo, true // an observed function value: its closure (closureid.go)
		}
	}
	// The table's own encodings (a WRITE_IN's value) bring external
	// code's values in.
	id, first, _, _ := o.lookup(v, isWeak, true, true)
	return id, first, name
}

// rewatchGen counts the entries the table has made unwatched again (an
// orphan event's sight of an object as a larger type): a stream's memory of
// recent objects (objectPins.recent) is valid only for the generation it was
// filled in, as a later watched sight of such an object must go to the
// table to watch it again.
var rewatchGen atomic.Uint64

// lookup is ID; inTable reports whether the object's entry is in the
// weak table (a heap object or a package variable, which a stream may pin:
// objectPins), not in the code table (function code, and pointers that are
// neither heap objects nor package variables), and wp is then the entry's
// weak pointer. watch is false for an orphan event's sight
// (objEntry.unwatched); incoming: the sight is in values entering the set
// (watchFields).
func (o *objects) lookup(v reflect.Value, isWeak, watch, incoming bool) (id uint64, first, inTable bool, wp weak.Pointer[byte]) {
	p := v.UnsafePointer()
	o.mu.Lock()
	defer o.mu.Unlock()
	o.lookups++
	if !isWeak {
		if id, ok := o.code[uintptr(p)]; ok {
			return id, false, false, wp
		}
		o.next++
		o.code[uintptr(p)] = o.next
		return o.next, true, false, wp
	}
	// Heap objects first (the common case), then the code table.
	size := pointeeSize(v)
	if e := o.ids.find(uintptr(p)); e != nil && weakIs(e.wp, p) {
		if size <= e.size {
			if size < e.size && o.types != nil {
				o.noteType(p, v) // an observed part of an external object (noteType)
			}
			if e.unwatched && watch {
				e.unwatched = false
				watchFields(v, e.wp, e.id, incoming)
			}
			return e.id, false, true, e.wp
		}
		e.size = size
		o.noteType(p, v)
		e.unwatched = !watch
		if e.unwatched {
			rewatchGen.Add(1)
		}
		o.locateLocked(p, v, e, size, false)
		if watch {
			watchFields(v, e.wp, e.id, incoming)
		}
		return e.id, true, true, e.wp
	}
	// First sight of a heap object, the common case (a request's new
	// context). The code table is not asked: what it holds in a heap
	// region are addresses on a goroutine's stack, seen earlier through
	// the slow path below (onStack); the memory may have become a heap
	// object since, which is a new object, not the stack variable again.
	if o.inHeapRegion(p) && !onStack(p) {
		wp := weak.Make((*byte)(p))
		o.next++
		o.ids.put(uintptr(p), objEntry{wp: wp, id: o.next, size: size, unwatched: !watch})
		o.locateLocked(p, v, o.ids.find(uintptr(p)), size, true)
		o.noteType(p, v)
		o.queue = append(o.queue, queuedEntry{uintptr(p), wp})
		o.sweepSomeLocked()
		if noteCrossed(v) && o == captureObjects {
			notePending(p)
		}
		if watch {
			watchFields(v, wp, o.next, incoming)
		}
		return o.next, true, true, wp
	}
	if id, ok := o.code[uintptr(p)]; ok {
		if size <= o.codeSize[uintptr(p)] {
			return id, false, false, wp
		}
		o.codeSize[uintptr(p)] = size
		return id, true, false, wp
	}
	// Only heap objects and package variables may get weak pointers; the
	// others are static and never freed, so their address is their
	// identity.
	c := &objCell{o: o, addr: uintptr(p)}
	ok, heap := addCleanup(p, c)
	if !ok {
		o.next++
		o.code[uintptr(p)] = o.next
		if size > 0 {
			o.codeSize[uintptr(p)] = size
		}
		if noteCrossed(v) && o == captureObjects { // a package variable
			notePending(p)
		}
		return o.next, true, false, wp
	}
	if heap {
		o.heapRegions[uintptr(p)>>heapRegionShift] = struct{}{}
		o.lastRegion = uintptr(p)>>heapRegionShift + 1
	}
	c.wp = weak.Make((*byte)(p))
	o.next++
	// A stale entry at this address (its object collected, its cleanup not
	// run yet) is replaced; that cleanup then leaves this one alone.
	o.ids.put(uintptr(p), objEntry{wp: c.wp, id: o.next, size: size, unwatched: !watch})
	if heap {
		o.locateLocked(p, v, o.ids.find(uintptr(p)), size, true)
	}
	o.noteType(p, v)
	if noteCrossed(v) && o == captureObjects {
		notePending(p)
	}
	if watch {
		watchFields(v, c.wp, o.next, incoming)
	}
	return o.next, true, true, c.wp
}

// inHeapRegion reports whether p is in one of heapRegions (o.mu held).
func (o *objects) inHeapRegion(p unsafe.Pointer) bool {
	r := uintptr(p) >> heapRegionShift
	if r+1 == o.lastRegion {
		return true
	}
	if _, ok := o.heapRegions[r]; ok {
		o.lastRegion = r + 1
		return true
	}
	return false
}

// onStack reports whether p is on the calling goroutine's stack.
func onStack(p unsafe.Pointer) bool {
	lo, hi := stackBounds()
	return lo <= uintptr(p) && uintptr(p) < hi
}

// sweepSomeLocked removes the entries of collected objects among the two
// oldest queued entries, and queues again those still alive: called once per
// entry queued, it keeps the queue (and the entries of collected objects)
// within about twice the live entries.
func (o *objects) sweepSomeLocked() {
	for range 2 {
		if o.queueHead == len(o.queue) {
			break
		}
		q := o.queue[o.queueHead]
		o.queue[o.queueHead] = queuedEntry{}
		o.queueHead++
		if !weakFreed(q.wp) {
			o.queue = append(o.queue, q)
			continue
		}
		if e := o.ids.find(q.addr); e != nil && e.wp == q.wp {
			o.ids.del(q.addr)
		}
	}
	if o.queueHead > 1024 && o.queueHead > len(o.queue)/2 {
		n := copy(o.queue, o.queue[o.queueHead:])
		clear(o.queue[n:])
		o.queue = o.queue[:n]
		o.queueHead = 0
	}
}

// objCell is what an object's cleanup needs to remove its entry.
type objCell struct {
	o    *objects
	addr uintptr
	wp   weak.Pointer[byte]
}

func forgetObject(c *objCell) {
	o := c.o
	o.mu.Lock()
	if e := o.ids.find(c.addr); e != nil && e.wp == c.wp {
		o.ids.del(c.addr)
	}
	o.mu.Unlock()
}

// addCleanup registers forgetObject(c) to run when the object at p is
// collected; it reports false, instead of panicking, for pointers that are
// neither heap objects nor package variables, and whether p is a heap
// object (the runtime registers no cleanup for a package variable).
func addCleanup(p unsafe.Pointer, c *objCell) (ok, heap bool) {
	defer func() {
		if recover() != nil {
			ok, heap = false, false
		}
	}()
	cl := runtime.AddCleanup((*byte)(p), forgetObject, c)
	return true, cl != runtime.Cleanup{}
}

func (o *objects) Recorded(unsafe.Pointer) (string, []byte, bool) { return "", nil, false }

// reserve gives the object v refers to the ID id, unless it has one
// (reserveVarObjects: the objects of exported variables).
func (o *objects) reserve(id uint64, v reflect.Value, isWeak bool) {
	p := v.UnsafePointer()
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.knownLocked(p); ok {
		return
	}
	noteCrossed(v) // external code can reach it through the variable
	size := pointeeSize(v)
	if !isWeak {
		o.code[uintptr(p)] = id
		return
	}
	c := &objCell{o: o, addr: uintptr(p)}
	if ok, _ := addCleanup(p, c); !ok {
		o.code[uintptr(p)] = id
		if size > 0 {
			o.codeSize[uintptr(p)] = size
		}
		return
	}
	c.wp = weak.Make((*byte)(p))
	o.ids.put(uintptr(p), objEntry{wp: c.wp, id: id, size: size})
	o.noteType(p, v)
	watchFields(v, c.wp, id, false)
}

func objectTable() value.Objects {
	if replaying {
		return play
	}
	return captureObjects
}
