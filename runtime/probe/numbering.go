package probe

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Numbering of new objects in replay (TestCorpus/freshids).
//
// The capture numbers an object when a goroutine first encodes it, which
// concurrent goroutines do before their events' turn: the log's IDs follow
// the order in which goroutines encoded, not the order of the events. A
// replay that counted on would number in its own goroutines' encoding
// order, another one. So replay numbers a new object at its event's turn
// and takes the number the log's event gives it: the k-th object that the
// event being built meets for the first time gets the k-th ID that first
// appears in the log's event. Waiting for the turn first makes an object
// that two goroutines share get its number from the earlier event, as in
// the log. Without concurrency this is the number the counter gave.

// firstAppearances lists, by event index, the object IDs that first appear
// in that event of the log, in order of appearance, and the objects the log
// names by more than one type (made on first use, in one pass over the
// log's values).
type firstAppearances struct {
	once  sync.Once
	ids   [][]uint64
	taken []int       // by event index: how many of ids were given out
	names objectNames // every ID in the log's values, with its type names (wholes.go)
}

func (p *player) computeFirstAppearances() {
	f := &p.first
	f.ids = make([][]uint64, len(p.events))
	f.taken = make([]int, len(p.events))
	f.names.init()
	for i := range p.events {
		e := &p.events[i]
		_ = value.ObjectRefs(e.Values, func(id uint64, name string) {
			if id != 0 && f.names.add(id, name) && id < varIDs {
				f.ids[i] = append(f.ids[i], id)
			}
		})
	}
}

// freshIDLocked binds v to a number above every one given so far that the
// log does not give another object: the object does not appear in the
// log's event being built (a callback's closure, or code that changed).
// Without concurrency that is the next number, the one the capture gave.
func (p *player) freshIDLocked(v reflect.Value, name string) uint64 {
	id := p.maxID + 1 // above every bound number: bound to nothing
	for p.first.names.has(id) {
		id++
	}
	p.bindLocked(id, v, name)
	return id
}

// closureAtTurn numbers, in replay, the closure of observed function value
// fn that the outcall being built by s passes to external code: the number
// the log's callbacks of that outcall name it by (their receiver), else a
// fresh one. The capture numbered it right after the outcall's arguments,
// in whatever order concurrent goroutines got there.
func (p *player) closureAtTurn(s *Stream, fn reflect.Value) uint64 {
	closure := reflect.ValueOf((*byte)(ptrOf(fn.Interface())))
	name := value.TypeName(fn.Type())
	p.objMu.Lock()
	id, _, _, ok := p.knownLocked(closure, name)
	p.objMu.Unlock()
	if ok {
		return id
	}
	sr := s.replay
	if sr != nil && sr.cur >= len(sr.idx) && p.cut {
		// An event past the stream's end in a cut log: the goroutine stops
		// before it (parkAtEnd), not taking a number that a later event of
		// the log may give another object.
		p.parkAtEnd(s)
	}
	if sr == nil || sr.cur >= len(sr.idx) {
		id, _, _ := p.ID(closure, name, true)
		return id
	}
	i := sr.idx[sr.cur]
	p.waitTurn(i)
	p.first.once.Do(p.computeFirstAppearances)
	site := callbackSite(fn).Name
	e := &p.events[i]
	var logged uint64
	if e.Kind == eventlog.KindCallOut {
		for j := i + 1; j < len(p.events); j++ {
			c := &p.events[j]
			if c.Parent != e.Seq {
				continue
			}
			if c.Kind == eventlog.KindReturnOut || c.Kind == eventlog.KindPanicIn {
				break // the outcall returned: its callbacks came before
			}
			if c.Kind == eventlog.KindCallIn && c.Site == site && c.RecvID != 0 {
				logged = c.RecvID
				break
			}
		}
	}
	p.objMu.Lock()
	defer p.objMu.Unlock()
	if id, _, _, ok := p.knownLocked(closure, name); ok {
		return id
	}
	if _, bound := p.byID[logged]; logged != 0 && !bound {
		p.bindLocked(logged, closure, name)
		return logged
	}
	return p.freshIDLocked(closure, name)
}

// turnObjects is the object table of a stream's encodings in replay: a new
// object is numbered at the turn of the stream's next event.
type turnObjects struct{ s *Stream }

func (t *turnObjects) ID(v reflect.Value, name string, _ bool) (uint64, bool, string) {
	return play.idAtTurn(t.s, v, name)
}

func (t *turnObjects) Recorded(ptr unsafe.Pointer) (string, []byte, bool) {
	return play.Recorded(ptr)
}

// turnTable is the object table for s's encodings of boundary events
// (capture: the stream's pins in front of the capture's table, pins.go).
func (s *Stream) turnTable() value.Objects {
	if replaying {
		s.turnObjs.s = s
		return &s.turnObjs
	}
	return &s.pins
}

func (p *player) idAtTurn(s *Stream, v reflect.Value, name string) (uint64, bool, string) {
	p.objMu.Lock()
	id, first, n, ok := p.knownLocked(v, name)
	p.objMu.Unlock()
	if ok {
		return id, first, n
	}
	sr := s.replay
	if sr != nil && sr.cur >= len(sr.idx) && p.cut {
		// An event past the stream's end in a cut log: the goroutine stops
		// before it (parkAtEnd), not taking a number that a later event of
		// the log may give another object.
		p.parkAtEnd(s)
	}
	if sr == nil || sr.cur >= len(sr.idx) {
		return p.ID(v, name, true)
	}
	i := sr.idx[sr.cur]
	p.waitTurn(i)
	p.first.once.Do(p.computeFirstAppearances)
	p.objMu.Lock()
	defer p.objMu.Unlock()
	if id, first, n, ok := p.knownLocked(v, name); ok {
		return id, first, n // an earlier event, released meanwhile, numbered it
	}
	e := &p.events[i]
	call := e.Kind == eventlog.KindCallIn || e.Kind == eventlog.KindCallOut
	if !call || (s.site != nil && e.Site == s.site.Name) {
		// The log's next event of the stream is the one being built (a
		// call of the same site, or the results of the open call).
		ids := p.first.ids[i]
		for p.first.taken[i] < len(ids) {
			id := ids[p.first.taken[i]]
			p.first.taken[i]++
			if _, bound := p.byID[id]; !bound {
				p.bindLocked(id, v, name)
				return id, true, name
			}
		}
	}
	return p.freshIDLocked(v, name), true, name
}
