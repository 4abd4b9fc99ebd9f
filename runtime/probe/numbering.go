package probe

import (
	"reflect"
	"slices"
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

// firstAppearances holds every object ID in the log's values with its type
// names, and the index of the event it first appears in (made on first
// use, in one pass over the log's values: read anew, replay holds only a
// window of the log). The IDs that first appear in an event, in order of
// appearance, are worked out from it when the event needs them (firstIDs):
// the table grows with the objects the log names, not with its events.
type firstAppearances struct {
	once    sync.Once
	names   objectNames    // every ID in the log's values, with its type names (wholes.go)
	firstAt map[uint64]int // ID (below varIDs) -> index of the event it first appears in
	located logLocations   // where the log says objects lie in others (replay_located.go)
	err     error          // the pass failed (the log changed since it was checked)
}

func (p *player) computeFirstAppearances() {
	f := &p.first
	f.names.init()
	f.firstAt = map[uint64]int{}
	f.err = p.scanLog(func(i int, e *eventlog.Event) bool {
		p.seedCheckpointNames(i, &f.names)
		_ = value.ObjectRefsLocated(e.Values, func(id uint64, name string) {
			if id != 0 && f.names.add(id, name) && id < varIDs {
				f.firstAt[id] = i
			}
		}, f.located.at)
		return true
	})
	// A segment whose checkpoint no event follows (cut at a run's last
	// checkpoint): the pass met no event at seg.at; seeding again adds
	// nothing to names already there.
	p.seedCheckpointNames(p.total, &f.names)
	if f.err != nil {
		p.loadFailed(f.err)
	}
}

// firstIDs returns the object IDs that first appear in event i, in order
// of appearance, and how many of them were given out (called with p.objMu
// held).
func (p *player) firstIDs(i int) (ids []uint64, taken *int) {
	c, k := p.chunkOf(i)
	if c.ids == nil {
		c.ids = make([][]uint64, len(c.ev))
		c.taken = make([]int, len(c.ev))
	}
	if c.ids[k] == nil {
		ids := []uint64{}
		_ = value.ObjectRefs(c.ev[k].Values, func(id uint64, _ string) {
			if at, ok := p.first.firstAt[id]; ok && at == i && !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		})
		c.ids[k] = ids
	}
	return c.ids[k], &c.taken[k]
}

// freshIDLocked binds v to a number above every one given so far that the
// log does not give another object: the object does not appear in the
// log's event being built (a callback's closure, or code that changed).
// Without concurrency that is the next number, the one the capture gave.
func (p *player) freshIDLocked(v reflect.Value, name string) uint64 {
	prev := p.maxID
	id := p.maxID + 1 // above every bound number: bound to nothing
	for p.first.names.has(id) {
		id++
	}
	p.bindLocked(id, v, name)
	p.noteFreshFunc(id, v, name, prev) // funcids.go
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
	if sr != nil && sr.cur >= sr.total && p.cut {
		// An event past the stream's end in a cut log: the goroutine stops
		// before it (parkAtEnd), not taking a number that a later event of
		// the log may give another object.
		p.parkAtEnd(s)
	}
	if sr == nil || sr.cur >= sr.total {
		id, _, _ := p.ID(closure, name, true)
		return id
	}
	i, e := p.at(sr, sr.cur)
	p.waitTurn(i)
	p.first.once.Do(p.computeFirstAppearances)
	site := callbackSite(fn).Name
	var logged uint64
	if e.Kind == eventlog.KindCallOut {
		for j := i + 1; j < p.total; j++ {
			c := p.ev(j)
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
	s.pins.outgoing = &s.enc.Outgoing
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
	if sr != nil && sr.cur >= sr.total && p.cut {
		// An event past the stream's end in a cut log: the goroutine stops
		// before it (parkAtEnd), not taking a number that a later event of
		// the log may give another object.
		p.parkAtEnd(s)
	}
	if sr == nil || sr.cur >= sr.total {
		return p.ID(v, name, true)
	}
	i, e := p.at(sr, sr.cur)
	p.waitTurn(i)
	p.first.once.Do(p.computeFirstAppearances)
	p.objMu.Lock()
	defer p.objMu.Unlock()
	if id, first, n, ok := p.knownLocked(v, name); ok {
		return id, first, n // an earlier event, released meanwhile, numbered it
	}
	call := e.Kind == eventlog.KindCallIn || e.Kind == eventlog.KindCallOut
	if !call || (s.site != nil && e.Site == s.site.Name) {
		// The log's next event of the stream is the one being built (a
		// call of the same site, or the results of the open call).
		ids, taken := p.firstIDs(i)
		for *taken < len(ids) {
			id := ids[*taken]
			*taken++
			if _, bound := p.byID[id]; !bound {
				p.bindLocked(id, v, name)
				return id, true, name
			}
		}
	}
	return p.freshIDLocked(v, name), true, name
}
