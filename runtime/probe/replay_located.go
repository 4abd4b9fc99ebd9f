package probe

import (
	"reflect"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Objects inside objects in replay (runtime/value: located.go). The
// numbering pass reads where the log says objects lie in others; replay
// makes such an object the field of the one it lies in (Interior), making
// that one when the part crosses first, and its encodings write the
// Locations where the capture's did: at the part's first sight if the log
// has them there, else at the enclosing object's, when replay's objects
// lie as the log says (so a replayed code that hands out a pointer
// elsewhere diverges at that event).

// LastUnlocatedFormat is the last log format version that says nowhere
// where an object lies in another (value.TagAt): its players write no
// Locations, as its capture did not.
const LastUnlocatedFormat = 10

// placed is where the log says an object lies.
type placed struct {
	in  uint64  // the object it lies in
	off uintptr // its offset there
	own bool    // said at the object's own first sight, not at in's
}

// logLocations holds the log's Locations (made by the numbering pass, read
// only after it).
type logLocations struct {
	where   map[uint64]placed   // object -> where it lies
	holds   map[uint64][]uint64 // object -> the objects its first sight locates in it, in log order
	pending []value.Location    // read, the reference they prefix not yet
}

func (l *logLocations) at(loc value.Location) { l.pending = append(l.pending, loc) }

// ref notes the reference that the Locations read since the last one
// prefix.
func (l *logLocations) ref(id uint64) {
	if len(l.pending) == 0 {
		return
	}
	if l.where == nil {
		l.where, l.holds = map[uint64]placed{}, map[uint64][]uint64{}
	}
	for _, loc := range l.pending {
		if _, ok := l.where[loc.ID]; ok || loc.ID == 0 || loc.In == 0 {
			continue
		}
		own := loc.ID == id
		l.where[loc.ID] = placed{in: loc.In, off: loc.Off, own: own}
		if !own {
			l.holds[loc.In] = append(l.holds[loc.In], loc.ID)
		}
	}
	l.pending = l.pending[:0]
}

// addrLocked is the address of the object bound to id, if it is a pointer.
func (p *player) addrLocked(id uint64) (uintptr, uintptr, bool) {
	v, ok := p.byID[id]
	if !ok {
		return 0, 0, false
	}
	c := concrete(v)
	if c.Kind() != reflect.Pointer || c.IsNil() {
		return 0, 0, false
	}
	return uintptr(c.UnsafePointer()), c.Type().Elem().Size(), true
}

// Located implements value.Locator: the Locations the log gives at the
// first sight of id that replay's objects bear out, each written once.
func (p *player) Located(id uint64, v reflect.Value) []value.Location {
	if p.format <= LastUnlocatedFormat || v.Kind() != reflect.Pointer || v.IsNil() {
		return nil
	}
	p.first.once.Do(p.computeFirstAppearances)
	l := &p.first.located
	if len(l.where) == 0 {
		return nil
	}
	a, size := uintptr(v.UnsafePointer()), v.Type().Elem().Size()
	p.objMu.Lock()
	defer p.objMu.Unlock()
	var out []value.Location
	note := func(x uint64, w placed) {
		if p.locatedIDs == nil {
			p.locatedIDs = map[uint64]bool{}
		}
		p.locatedIDs[x] = true
		out = append(out, value.Location{ID: x, In: w.in, Off: w.off})
	}
	if w, ok := l.where[id]; ok && w.own && !p.locatedIDs[id] {
		if in, _, ok := p.addrLocked(w.in); ok && in+w.off == a || p.unplaced[id] {
			note(id, w)
		}
	}
	for _, x := range l.holds[id] {
		w := l.where[x]
		if p.locatedIDs[x] {
			continue
		}
		if xa, xsize, ok := p.addrLocked(x); ok && xa == a+w.off && w.off+xsize <= size || p.unplaced[x] {
			note(x, w)
		}
	}
	return out
}

// Located implements value.Locator for a stream's encodings.
func (t *turnObjects) Located(id uint64, v reflect.Value) []value.Location {
	return play.Located(id, v)
}

// Interior implements value.InteriorResolver.
func (p *player) Interior(id uint64, t reflect.Type) (reflect.Value, bool) {
	w, whole, ok := p.placedOf(id, t)
	if !ok {
		return reflect.Value{}, false
	}
	p.objMu.Lock()
	defer p.objMu.Unlock()
	if _, bound := p.byID[id]; bound {
		return reflect.Value{}, false
	}
	x, ok := p.interiorLocked(t, w, whole)
	if !ok {
		p.noteUnplacedLocked(id)
	}
	return x, ok
}

// noteUnplacedLocked notes that replay made object id, which the log
// locates in another one, as an object of its own (its enclosing object's
// type holds no such value there in this build, or is a stand-in): its
// encodings write the log's Location as recorded, as replay cannot check
// it, and the object behaves as before logs located objects.
func (p *player) noteUnplacedLocked(id uint64) {
	if p.unplaced == nil {
		p.unplaced = map[uint64]bool{}
	}
	p.unplaced[id] = true
}

// placedOf returns where the log says object id, first seen as a t, lies,
// and the struct type the log names the object it lies in by when it
// names it by several (Whole).
func (p *player) placedOf(id uint64, t reflect.Type) (placed, reflect.Type, bool) {
	if t.Kind() != reflect.Pointer || t.Elem().Size() == 0 {
		return placed{}, nil, false
	}
	p.first.once.Do(p.computeFirstAppearances)
	w, ok := p.first.located.where[id]
	if !ok {
		return placed{}, nil, false
	}
	whole, _ := p.Whole(w.in)
	return w, whole, true
}

// interiorLocked returns a t at its place w in the object it lies in,
// making that object (of type whole, or the type the log first names it
// by) if it has not crossed yet; false if that object's type holds no t
// there (called with objMu held).
func (p *player) interiorLocked(t reflect.Type, w placed, whole reflect.Type) (reflect.Value, bool) {
	if _, _, bound := p.addrLocked(w.in); !bound {
		if _, any := p.byID[w.in]; any {
			return reflect.Value{}, false
		}
		et := whole
		if et == nil {
			n := &p.first.names
			i, ok := n.first[w.in]
			if !ok {
				return reflect.Value{}, false
			}
			rt, ok := value.LookupType(n.list[i])
			if !ok || rt.Kind() != reflect.Pointer {
				return reflect.Value{}, false
			}
			et = rt.Elem()
		}
		if !value.HoldsAt(et, w.off, t.Elem()) {
			return reflect.Value{}, false
		}
		// The object crosses later: made now, it is new at that sight
		// (as Bind's objects are).
		in := reflect.New(et)
		p.bindLocked(w.in, in, value.TypeName(in.Type()))
		if p.premade == nil {
			p.premade = map[uint64]bool{}
		}
		p.premade[w.in] = true
		k := p.key(in)
		o := p.ids[k]
		o.fresh, o.size = true, 0
		p.ids[k] = o
	}
	in := concrete(p.byID[w.in])
	if !value.HoldsAt(in.Type().Elem(), w.off, t.Elem()) {
		return reflect.Value{}, false
	}
	return reflect.NewAt(t.Elem(), unsafe.Add(in.UnsafePointer(), w.off)), true
}
