package probe

import (
	"reflect"
	"slices"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Objects the log names by several types at one address (go-cmp's
// teststructs calls s.PublicStruct.SetPrivate(2), a *PublicStruct at the
// address of s, before s.SetPrivate(4) on the *ParentStructD). The capture
// numbers an object by its address, so both sights have one ID; replay,
// which makes the object at its first sight, must make the whole struct
// there, not the smaller first field, or the later sight cannot be the same
// object. The pass over the log that numbers new objects (numbering.go) also
// collects, per ID, the type names the log gives it; Whole picks the struct
// that holds all the others at its start.

// objectNames holds the type names the log's references and objects give
// each object ID: the first, and the further ones of the few IDs named by
// several types. Names are interned: a log names many objects by few types.
type objectNames struct {
	first  map[uint64]uint32   // ID -> index in list of its first name
	more   map[uint64][]uint32 // ID -> indices of its further names
	list   []string
	index  map[string]uint32
	wholes map[uint64]reflect.Type // Whole's answers (under the player's objMu)
}

func (n *objectNames) init() {
	n.first = map[uint64]uint32{}
	n.more = map[uint64][]uint32{}
	n.index = map[string]uint32{}
	n.wholes = map[uint64]reflect.Type{}
}

func (n *objectNames) intern(name string) uint32 {
	i, ok := n.index[name]
	if !ok {
		i = uint32(len(n.list))
		n.list = append(n.list, name)
		n.index[name] = i
	}
	return i
}

// add notes that the log names id by name; it reports whether id is new.
func (n *objectNames) add(id uint64, name string) bool {
	i := n.intern(name)
	f, ok := n.first[id]
	if !ok {
		n.first[id] = i
		return true
	}
	if f != i && !slices.Contains(n.more[id], i) {
		n.more[id] = append(n.more[id], i)
	}
	return false
}

// has reports whether the log names id at all.
func (n *objectNames) has(id uint64) bool {
	_, ok := n.first[id]
	return ok
}

// Whole implements value.WholeResolver: for an object the log names by
// several pointer types, the struct type that holds the others' elements at
// its start, if this build can name all of them and there is one.
func (p *player) Whole(id uint64) (reflect.Type, bool) {
	p.first.once.Do(p.computeFirstAppearances)
	n := &p.first.names
	more := n.more[id]
	if len(more) == 0 {
		return nil, false
	}
	p.objMu.Lock()
	defer p.objMu.Unlock()
	if w, ok := n.wholes[id]; ok {
		return w, w != nil
	}
	names := []string{n.list[n.first[id]]}
	for _, i := range more {
		names = append(names, n.list[i])
	}
	lookup := value.LookupType
	if p.seg != nil && p.seg.from != 0 {
		// A segment's checkpoint is decoded with the types the build
		// links (restoreSegment): an object it restores as an observed
		// struct that later sights name by a linked external type holding
		// it at its start is made as that whole, or the checkpoint's own
		// references to the external type would make a second object
		// (corpus embedph).
		lookup = value.LinkedType
	}
	w := wholeOf(names, lookup)
	n.wholes[id] = w
	return w, w != nil
}

// wholeOf returns the element type of the pointer type among names whose
// element holds every other's at its start, or nil. Names this build
// cannot resolve (types it does not register, such as a test's own) and
// names of other kinds (a function, a channel) are left out: they get no
// object of their own at that ID either.
func wholeOf(names []string, lookup func(string) (reflect.Type, bool)) reflect.Type {
	var elems []reflect.Type
	for _, name := range names {
		t, ok := lookup(name)
		if !ok || t.Kind() != reflect.Pointer {
			continue
		}
		elems = append(elems, t.Elem())
	}
	for _, w := range elems {
		holdsAll := true
		for _, e := range elems {
			if e != w && !value.LeadsWith(w, e) {
				holdsAll = false
				break
			}
		}
		if holdsAll {
			return w
		}
	}
	return nil
}
