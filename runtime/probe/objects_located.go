package probe

import (
	"reflect"
	"slices"
	"unsafe"
	"weak"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Objects inside objects (runtime/value: located.go). The table numbers an
// object by its address, so a pointer into a heap object that is not at its
// start (&ctx.Params) has an ID of its own; the log says where it lies
// (value.Location), so that replay makes it a part of the object it lies
// in. At a pointer's first sight the table asks the runtime for the start
// of the heap object it points into (findObject): if an object of the table
// starts there and is known as large enough to hold the pointee, the
// pointer's reference carries its Location; else the pointer waits (parts)
// for an object to cross at that start as large a type as holds it, and
// that object's reference carries the Location (expr's ast.Patch(&p.Node,
// n) before p crosses). Only heap objects: a package variable's field or a
// stack's memory is not located.

// findObject is the runtime's lookup of the heap object p points into: its
// start, or 0 if p is not in the heap (a stack, a package variable, memory
// the runtime does not manage). The runtime keeps its signature for
// packages outside it (go.dev/issue/67401).
//
//go:linkname findObject runtime.findObject
func findObject(p, refBase, refOff uintptr) (base uintptr, s unsafe.Pointer, objIndex uintptr)

// part is a pointer into a heap object, at its first sight, that no known
// object held: it waits for one to cross at the heap object's start.
type part struct {
	addr uintptr
	id   uint64
	size uintptr
	wp   weak.Pointer[byte]
}

// locateLocked is called (o.mu held) at the first sight of the object at p,
// seen as a pointer to size bytes, whose entry e has just been made or
// seen as a larger type (new: just made): it notes the Locations that the
// reference being written must carry (o.ties, Located).
func (o *objects) locateLocked(p unsafe.Pointer, v reflect.Value, e *objEntry, size uintptr, isNew bool) {
	if v.Kind() != reflect.Pointer || size == 0 {
		return
	}
	a := uintptr(p)
	var ties []value.Location
	if isNew && !e.located {
		if base, _, _ := findObject(a, 0, 0); base != 0 && base != a {
			if in := o.ids.find(base); in != nil && !in.unwatched && a-base+size <= in.size && weakIsAddr(in.wp, base) {
				e.located = true
				ties = append(ties, value.Location{ID: e.id, In: in.id, Off: a - base})
			} else {
				o.addPartLocked(base, part{addr: a, id: e.id, size: size, wp: e.wp})
			}
		}
	}
	if parts := o.parts[a]; len(parts) > 0 {
		// The object at a heap object's start, seen as large enough to
		// hold pointers that crossed into it before.
		kept := parts[:0]
		for _, pt := range parts {
			x := o.ids.find(pt.addr)
			switch {
			case x == nil || x.id != pt.id || !weakIsAddr(x.wp, pt.addr):
				o.nparts-- // collected
			case pt.addr-a+pt.size <= size && !e.unwatched:
				x.located = true
				ties = append(ties, value.Location{ID: pt.id, In: e.id, Off: pt.addr - a})
				o.nparts--
			default:
				kept = append(kept, pt)
			}
		}
		clear(parts[len(kept):])
		if len(kept) == 0 {
			delete(o.parts, a)
		} else {
			o.parts[a] = kept
		}
	}
	if len(ties) == 0 {
		return
	}
	slices.SortFunc(ties, func(x, y value.Location) int { return int(x.Off) - int(y.Off) })
	if o.ties == nil {
		o.ties = map[uint64][]value.Location{}
	}
	o.ties[e.id] = append(o.ties[e.id], ties...)
	o.nties.Add(1)
}

// addPartLocked queues pt as waiting for an object at base; the parts of
// collected objects go when the queue has doubled since the last sweep.
func (o *objects) addPartLocked(base uintptr, pt part) {
	if o.parts == nil {
		o.parts = map[uintptr][]part{}
	}
	o.parts[base] = append(o.parts[base], pt)
	o.nparts++
	if o.nparts <= 2*o.partsSwept+64 {
		return
	}
	for b, parts := range o.parts {
		kept := parts[:0]
		for _, q := range parts {
			if !weakFreed(q.wp) {
				kept = append(kept, q)
			}
		}
		clear(parts[len(kept):])
		if len(kept) == 0 {
			delete(o.parts, b)
		} else {
			o.parts[b] = kept
		}
		o.nparts -= len(parts) - len(kept)
	}
	o.partsSwept = o.nparts
}

// Located implements value.Locator: the Locations the first sight of id
// that lookup just answered must write.
func (o *objects) Located(id uint64, _ reflect.Value) []value.Location {
	if o.nties.Load() == 0 {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	ties, ok := o.ties[id]
	if !ok {
		return nil
	}
	delete(o.ties, id)
	o.nties.Add(-1)
	return ties
}

// Located implements value.Locator for the stream's encodings.
func (c *objectPins) Located(id uint64, v reflect.Value) []value.Location {
	return captureObjects.Located(id, v)
}

// Located implements value.Locator for a checkpoint's encoding (the table's
// lock held): a located object of the table is written with its Location
// again, so that replay from the checkpoint restores it as a part of the
// object it lies in.
func (c *ckptObjects) Located(id uint64, v reflect.Value) []value.Location {
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil
	}
	o := captureObjects
	a := uintptr(v.UnsafePointer())
	e := o.ids.find(a)
	if e == nil || !e.located || e.id != id || !weakIsAddr(e.wp, a) {
		return nil
	}
	base, _, _ := findObject(a, 0, 0)
	if base == 0 || base == a {
		return nil
	}
	in := o.ids.find(base)
	if in == nil || !weakIsAddr(in.wp, base) {
		return nil
	}
	return []value.Location{{ID: id, In: in.id, Off: a - base}}
}
