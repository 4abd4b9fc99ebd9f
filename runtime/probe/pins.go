package probe

import (
	"reflect"
	"unsafe"
	"weak"
)

// objectPins is a stream's small cache in front of the capture's object
// table: the objects its outermost call (a request's incall, typically) has
// numbered so far, held by strong pointers until that call returns. A
// request passes the same few objects again and again (its context to every
// outcall, the receivers of its methods); each later sight then costs a
// pointer comparison instead of the table's lock, map lookup and weak
// pointer check. Holding the pointer is what makes the cache right without
// any check: a pinned object cannot be collected, so no other object can
// appear at its address while it is pinned, and the table's entry for it
// (the ID cached here) cannot change. The pins are dropped when the
// stream's outermost call ends (Stream.idle), so capture keeps an object
// alive no longer than the call that uses it.
type objectPins struct {
	n    int // slots in use
	next int // the slot replaced when all are in use
	p    [pinSlots]unsafe.Pointer
	of   [pinSlots]pinned // of p[i]: one cache line per hit besides p's

	// orphan: the outermost call is an orphan outcall (Out), whose events
	// replay skips: the objects it numbers are not watched (objEntry.unwatched).
	orphan bool

	// noting: the values of a top-level CALL_IN are being encoded; noted
	// gets the ID of every object they name (enterObjects, writefields.go).
	noting bool
	noted  []uint64

	// outgoing is the stream's encoder's Outgoing (turnTable): whether the
	// values being encoded leave the set or enter it (watchFields).
	outgoing *bool

	// recent remembers, across outermost calls, the objects this stream
	// numbered, by weak pointer (recentObject). A server goroutine passes
	// the same objects in call after call: its receivers and the handles
	// they call out to in every request, the request's context in each of
	// the request's incalls. A sight of one of them then costs a weak
	// pointer's check instead of the table's lock, map lookup and check,
	// and the object is pinned for the rest of the call.
	recentAddr [recentSlots]uintptr // recent[i]'s address, apart: a miss scans one cache line
	recentHand int                  // the clock hand of recent's replacement
	recent     [recentSlots]recentObject
}

// recentObject is an entry of objectPins.recent. It answers for the
// object at its address (recentAddr) while wp still yields that object: the table's entry for a
// live object keeps its ID and weak pointer (weak pointers are unique per
// object), and the collector clears wp before the address can hold another
// object. name and size are as in the pins; gen is rewatchGen when the
// entry was made; used is the second chance of the clock replacement.
type recentObject struct {
	wp   weak.Pointer[byte]
	id   uint64
	name string
	size uintptr
	gen  uint64
	used bool
}

// pinned is what the pins know of a pinned object: its ID, and the type
// name and pointee size it was seen as (objEntry.size); a sight under
// another name asks the size.
type pinned struct {
	id   uint64
	size uintptr
	name string
}

// recentSlots: a shop connection's goroutine sees ~5 long-lived objects
// (three receivers, the database, a time zone) and a new context per request.
const recentSlots = 8

// pinSlots: a shop request crosses the boundary with ~4 distinct objects
// (its context, two or three receivers).
const pinSlots = 8

// ID is objects.ID of the capture's table, answered from the pins when the
// stream's outermost call has seen the object. Only objects of the table's
// weak part are pinned: heap objects and package variables. Function code
// pointers are not objects, and anything else there may be a pointer into
// a stack, which must not be stored in the heap.
func (c *objectPins) ID(v reflect.Value, name string, isWeak bool) (uint64, bool, string) {
	id, first, name := c.id(v, name, isWeak)
	if c.noting {
		c.noted = append(c.noted, id)
	}
	return id, first, name
}

func (c *objectPins) id(v reflect.Value, name string, isWeak bool) (uint64, bool, string) {
	if !isWeak {
		clo, ok := closureIdentity(v) // an observed function value: its closure (closureid.go)
		if !ok {
			return captureObjects.ID(v, name, false)
		}
		v = clo
	}
	p := v.UnsafePointer()
	for i := range c.n {
		if c.p[i] == p {
			e := &c.of[i]
			if name != e.name {
				if size := pointeeSize(v); size > e.size {
					// Seen as a larger type: the table decides (objEntry.size).
					e.name, e.size = name, size
					id, first, _, _ := captureObjects.lookup(v, true, !c.orphan, c.incoming())
					return id, first, name
				} else if size < e.size && ckptOn {
					captureObjects.notePart(p, v)
				}
			}
			return e.id, false, name
		}
	}
	if id, size, ok := c.recentID(v, p, name); ok {
		c.pin(p, id, name, size)
		return id, false, name
	}
	gen := rewatchGen.Load() // before the lookup: a later change must invalidate what it answers
	id, first, inTable, wp := captureObjects.lookup(v, true, !c.orphan, c.incoming())
	if !inTable {
		return id, first, name
	}
	size := pointeeSize(v)
	c.pin(p, id, name, size)
	if !c.orphan {
		c.remember(p, wp, id, name, size, gen)
	}
	return id, first, name
}

// incoming reports whether the values being encoded enter the set.
func (c *objectPins) incoming() bool { return c.outgoing != nil && !*c.outgoing }

func (c *objectPins) pin(p unsafe.Pointer, id uint64, name string, size uintptr) {
	i := c.n
	if i == pinSlots {
		i = c.next
		c.next = (c.next + 1) % pinSlots
	} else {
		c.n++
	}
	c.p[i] = p
	c.of[i] = pinned{id: id, size: size, name: name}
}

// recentID answers a sight of the object at p from recent when the table
// would answer it with the remembered ID and no first sight: the object is
// still alive (so the entry's ID is the table's), not seen as a larger type
// than remembered, and not made unwatched since (rewatchGen). An orphan
// call's sights go to the table (they may make an object unwatched).
func (c *objectPins) recentID(v reflect.Value, p unsafe.Pointer, name string) (id uint64, size uintptr, ok bool) {
	if c.orphan {
		return 0, 0, false
	}
	for i, addr := range &c.recentAddr {
		if addr != uintptr(p) {
			continue
		}
		r := &c.recent[i]
		size = r.size
		if name != r.name {
			if s := pointeeSize(v); s > size || s < size && ckptOn {
				// Larger: the table decides (objEntry.size); smaller, with
				// checkpoints on: the table notes the part (noteType).
				return 0, 0, false
			}
		}
		if r.gen != rewatchGen.Load() || !weakIs(r.wp, p) {
			return 0, 0, false
		}
		r.used = true
		return r.id, size, true
	}
	return 0, 0, false
}

// remember adds the object at p to recent, in place of an entry for the
// same address or, by the clock, of one not used since the hand last passed.
func (c *objectPins) remember(p unsafe.Pointer, wp weak.Pointer[byte], id uint64, name string, size uintptr, gen uint64) {
	slot := -1
	for i, addr := range &c.recentAddr {
		if addr == uintptr(p) {
			slot = i
			break
		}
	}
	if slot < 0 {
		for {
			r := &c.recent[c.recentHand]
			i := c.recentHand
			c.recentHand = (c.recentHand + 1) % recentSlots
			if !r.used {
				slot = i
				break
			}
			r.used = false
		}
	}
	c.recent[slot] = recentObject{wp: wp, id: id, name: name, size: size, gen: gen}
	c.recentAddr[slot] = uintptr(p) // not a pointer: recent must not keep the object alive
}

func (c *objectPins) Recorded(unsafe.Pointer) (string, []byte, bool) { return "", nil, false }

// clear drops the pins (the objects may be collected from now on).
func (c *objectPins) clear() {
	clear(c.p[:c.n])
	c.n, c.next = 0, 0
}
