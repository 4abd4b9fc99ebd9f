package probe

import (
	"reflect"
	"unsafe"
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
	p    [pinSlots]unsafe.Pointer
	id   [pinSlots]uint64
	n    int // slots in use
	next int // the slot replaced when all are in use

	// name and size are the type name and pointee size each pin was seen
	// as (objEntry.size); a sight under another name asks the size.
	name [pinSlots]string
	size [pinSlots]uintptr

	// orphan: the outermost call is an orphan outcall (Out), whose events
	// replay skips: the objects it numbers are not watched (objEntry.unwatched).
	orphan bool
}

// pinSlots: a shop request crosses the boundary with ~4 distinct objects
// (its context, two or three receivers).
const pinSlots = 8

// ID is objects.ID of the capture's table, answered from the pins when the
// stream's outermost call has seen the object. Only objects of the table's
// weak part are pinned: heap objects and package variables. Function code
// pointers are not objects, and anything else there may be a pointer into
// a stack, which must not be stored in the heap.
func (c *objectPins) ID(v reflect.Value, name string, isWeak bool) (uint64, bool, string) {
	if !isWeak {
		return captureObjects.ID(v, name, false)
	}
	p := v.UnsafePointer()
	for i := range c.n {
		if c.p[i] == p {
			if name != c.name[i] {
				if size := pointeeSize(v); size > c.size[i] {
					// Seen as a larger type: the table decides (objEntry.size).
					c.name[i], c.size[i] = name, size
					id, first, _ := captureObjects.lookup(v, true, !c.orphan)
					return id, first, name
				}
			}
			return c.id[i], false, name
		}
	}
	id, first, pin := captureObjects.lookup(v, true, !c.orphan)
	if !pin {
		return id, first, name
	}
	i := c.n
	if i == pinSlots {
		i = c.next
		c.next = (c.next + 1) % pinSlots
	} else {
		c.n++
	}
	c.p[i], c.id[i], c.name[i], c.size[i] = p, id, name, pointeeSize(v)
	return id, first, name
}

func (c *objectPins) Recorded(unsafe.Pointer) (string, []byte, bool) { return "", nil, false }

// clear drops the pins (the objects may be collected from now on).
func (c *objectPins) clear() {
	clear(c.p[:c.n])
	c.n, c.next = 0, 0
}
