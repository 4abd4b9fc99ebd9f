package probe

import (
	"bytes"
	"reflect"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// The capture numbers a function value from outside the observed set by
// its code: utils.StringComparator passed in by a test (avltree.NewWith(
// utils.StringComparator)) and the same function that observed code takes
// itself (NewWithStringComparator's &Tree{Comparator:
// utils.StringComparator}) are one object, one ID. Replay knows the first
// only as a stand-in for the recorded ID, with no code pointer: the log
// names a function value by its type, not by its function. When the
// replayed code then hands out the real function, replay numbered it as a
// new object and the event differed from the log by that ID alone.
//
// So replay remembers the function values it numbers afresh while it
// encodes (freshFunc), and where an event's values differ from the log's,
// it tries each of them as one of the function values it has an ID for
// already: if writing that ID in place of the new one makes the values the
// log's, the capture had given the function that ID, and replay binds the
// function's code to it from then on (and takes the new ID back, which the
// capture never gave).

type freshFunc struct {
	id      uint64
	key     unsafe.Pointer
	name    string
	prevMax uint64 // p.maxID before
}

// noteFreshFunc remembers v, a function value just bound to the new ID id
// under the recorded name name, p.maxID having been prevMax (objMu held).
func (p *player) noteFreshFunc(id uint64, v reflect.Value, name string, prevMax uint64) {
	if concrete(v).Kind() != reflect.Func {
		return
	}
	if len(p.freshFuncs) >= 16 {
		p.freshFuncs = p.freshFuncs[1:]
	}
	p.freshFuncs = append(p.freshFuncs, freshFunc{id: id, key: p.key(v), name: name, prevMax: prevMax})
	p.nFresh.Store(int32(len(p.freshFuncs)))
}

// sameValues reports whether the values the code encoded (s.enc.Buf) are
// want, the log's (as sameLocated compares them), also after giving
// function values replay numbered afresh the IDs the capture gave them (see
// above).
func (p *player) sameValues(s *Stream, want []byte) bool {
	if p.nFresh.Load() == 0 {
		return p.sameLocated(want, s.enc.Buf)
	}
	p.objMu.Lock()
	defer p.objMu.Unlock()
	fresh := p.freshFuncs
	p.freshFuncs = nil
	p.nFresh.Store(0)
	if same := p.sameLocatedLocked(want, s.enc.Buf); same || len(fresh) == 0 {
		return same
	}
	got := s.enc.Buf
	type rebind struct {
		f  freshFunc
		id uint64
	}
	var done []rebind
	for i := len(fresh) - 1; i >= 0; i-- {
		f := fresh[i]
		if o, ok := p.ids[f.key]; !ok || o.id != f.id {
			continue
		}
		best, bestLen := got, commonPrefix(got, want)
		var bestID uint64
		for id, v := range p.byID {
			if id == f.id || concrete(v).Kind() != reflect.Func || id >= f.id {
				continue
			}
			b := replaceRef(got, f.name, f.id, id)
			if n := commonPrefix(b, want); n > bestLen {
				best, bestLen, bestID = b, n, id
			}
		}
		if bestID != 0 {
			got = best
			done = append(done, rebind{f, bestID})
		}
	}
	if len(done) == 0 || !p.sameLocatedLocked(want, got) {
		return false
	}
	for _, r := range done {
		o := p.ids[r.f.key]
		o.id = r.id
		p.ids[r.f.key] = o
		delete(p.byID, r.f.id)
		if p.maxID == r.f.id {
			p.maxID = r.f.prevMax
		}
	}
	s.enc.Buf = append(s.enc.Buf[:0], got...)
	return true
}

// replaceRef returns b with each reference to object from, named name or
// by its interface value's name (empty), made one to object to.
func replaceRef(b []byte, name string, from, to uint64) []byte {
	out := b
	for _, n := range []string{name, ""} {
		out = bytes.ReplaceAll(out, value.AppendRef(nil, n, from), value.AppendRef(nil, n, to))
	}
	return out
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
