package probe

import (
	"bytes"
	"reflect"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Objects inside objects in replay (runtime/value: located.go). The
// numbering pass reads where the log says objects lie in others; replay
// makes such an object the field of the one it lies in (Interior), making
// that one when the part crosses first. Its own encodings write no
// Locations: it compares values without them and checks the log's against
// its objects (sameValues).

// LastUnlocatedFormat is the last log format version that says nowhere
// where an object lies in another (value.TagAt): its players compare values
// byte for byte, as before.
const LastUnlocatedFormat = 10

// placed is where the log says an object lies.
type placed struct {
	in  uint64  // the object it lies in
	off uintptr // its offset there
}

// logLocations holds the log's Locations (made by the numbering pass, read
// only after it).
type logLocations struct {
	where map[uint64]placed // object -> where it lies
}

func (l *logLocations) at(loc value.Location) {
	if loc.ID == 0 || loc.In == 0 {
		return
	}
	if l.where == nil {
		l.where = map[uint64]placed{}
	}
	if _, ok := l.where[loc.ID]; !ok {
		l.where[loc.ID] = placed{in: loc.In, off: loc.Off}
	}
}

// addrLocked is the address of the object bound to id, if it is a pointer.
func (p *player) addrLocked(id uint64) (uintptr, bool) {
	v, ok := p.byID[id]
	if !ok {
		return 0, false
	}
	c := concrete(v)
	if c.Kind() != reflect.Pointer || c.IsNil() {
		return 0, false
	}
	return uintptr(c.UnsafePointer()), true
}

// sameLocated reports whether the values replay encoded for an event match
// the log's: byte for byte, or, in a log that locates objects, byte for
// byte without the Locations (value.StripLocations: the capture writes one
// at the first encoding in time, which concurrent goroutines may do in an
// event that comes later in the log, so replay writes none) while replay's
// objects lie where the log's Locations say (replayed code that hands out
// a pointer elsewhere diverges at that event).
func (p *player) sameLocated(logged, replayed []byte) bool {
	if bytes.Equal(logged, replayed) {
		return true
	}
	p.objMu.Lock()
	defer p.objMu.Unlock()
	return p.sameLocatedLocked(logged, replayed)
}

// sameLocatedLocked is sameLocated with objMu held. Values that differ
// only by their TagImplements prefixes are the same (value.StripImplements
// says why they can).
func (p *player) sameLocatedLocked(logged, replayed []byte) bool {
	if p.sameLocatedExactLocked(logged, replayed) {
		return true
	}
	if bytes.IndexByte(logged, value.TagImplements) < 0 && bytes.IndexByte(replayed, value.TagImplements) < 0 {
		return false
	}
	l, err := value.StripImplements(logged)
	if err != nil {
		return false
	}
	r, err := value.StripImplements(replayed)
	if err != nil || (len(l) == len(logged) && len(r) == len(replayed)) {
		return false
	}
	return p.sameLocatedExactLocked(l, r)
}

// sameLocatedExactLocked compares logged and replayed, their Locations
// apart.
func (p *player) sameLocatedExactLocked(logged, replayed []byte) bool {
	if bytes.Equal(logged, replayed) {
		return true
	}
	if p.format <= LastUnlocatedFormat {
		return false
	}
	lw, locs, err := value.StripLocations(logged)
	if err != nil || len(locs) == 0 || !bytes.Equal(lw, replayed) {
		return false
	}
	for _, l := range locs {
		x, okx := p.addrLocked(l.ID)
		in, okin := p.addrLocked(l.In)
		if okx && okin && !p.unplaced[l.ID] && x != in+l.Off {
			return false
		}
	}
	return true
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
// type holds no such value there in this build, or is a stand-in): the
// log's Location of it is not checked (sameValues), and the object behaves
// as before logs located objects.
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
	if _, bound := p.addrLocked(w.in); !bound {
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
