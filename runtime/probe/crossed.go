package probe

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Objects whose operations in observed code depend on whether they crossed
// the boundary: channels (chan.go: a crossed channel's operations are
// outcalls) and sync primitives reached through pointers (syncobj.go: a
// crossed object's methods are outcalls). One mechanism for both: an
// object crossed once it has an object ID (capture: encoded at an event;
// replay: encoded, decoded or stood in for), which the object table
// answers by address (a weak pointer per entry, so a new object at the
// address of a collected one has not crossed). When such an object gets
// its ID, noteCrossed counts it per kind, so that the common case, nothing
// of the kind ever crossed, costs one atomic load per operation (Private,
// Chan, Select) and never takes the object table's lock.
var crossings struct {
	sync  atomic.Int32 // sync primitives that got an object ID so far
	chans atomic.Int32 // channels that got an object ID so far
}

// noteCrossed counts v, a reference that just got its object ID, if it is
// a channel or a pointer to a sync primitive. It reports whether v is a
// channel.
func noteCrossed(v reflect.Value) (isChan bool) {
	for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	switch {
	case !v.IsValid():
	case v.Kind() == reflect.Chan:
		crossings.chans.Add(1)
		return true
	case syncType(v.Type()):
		crossings.sync.Add(1)
	}
	return false
}

// The order of channel crossings (TestChannelCrossesAtItsEvent).
//
// Whether a channel operation or a select of observed code is an outcall,
// and which of a select's channels its CALL_OUT names, depends on whether
// the channels crossed. When one goroutine passes a channel across the
// boundary while another operates on it (golang-lru's expirable.NewLRU
// returns the cache whose contents hold done, while the reaper it started
// selects on done), the answer depends on which goroutine got there first,
// which replay's scheduling would decide again, otherwise. So the answer is
// tied to the log's order of events, in capture and replay alike: a
// channel counts as crossed at an operation iff the event that gave it its
// object ID comes before the operation's CALL_OUT in the log.
//
//   - capture: a channel numbered while an event is being encoded is
//     pending until that event is appended (its stream's pendingChans);
//     appending it and publishing the channel happen under chanOrder.mu. So
//     a channel operation that sees its channel crossed appends its
//     CALL_OUT after that event. A select some of whose channels crossed
//     decides which (the channels its CALL_OUT names) and appends its
//     CALL_OUT under chanOrder.mu too, so that a channel published meanwhile
//     is named iff its event comes first.
//   - replay numbers a new object at its event's turn (numbering.go), and an
//     operation whose CALL_OUT is the stream's next event in the log decides
//     at that event's turn (waitChanTurn), after every earlier event.
//
// The lock is taken only by selects with a crossed channel and by events
// that numbered a channel. An operation that finds no channel crossed runs
// natively and makes no event; when another goroutine's event numbers its
// channel at that moment, replay may decide otherwise (the documented
// limit).
var chanOrder struct {
	mu      sync.Mutex
	pending map[uintptr]int // capture: numbered channels whose event is not appended yet (guarded by captureObjects.mu)
}

// notePending marks the channel at p, numbered by the goroutine's event
// being encoded, as not crossed until that event is appended (called with
// captureObjects.mu held).
func notePending(p unsafe.Pointer) {
	if replaying {
		return
	}
	if chanOrder.pending == nil {
		chanOrder.pending = map[uintptr]int{}
	}
	chanOrder.pending[uintptr(p)]++
	s := current()
	s.pendingChans = append(s.pendingChans, uintptr(p))
	s.ordered = true
}

// holdChanOrder takes chanOrder.mu for s until its next event is appended
// (capture): the decision about to be made on crossed channels and the
// event's place in the log.
func (s *Stream) holdChanOrder() {
	if replaying || s.chanHeld {
		// Held already: a channel operation inside the encoding of a sent
		// value (an observed Error method) must not wait for itself.
		return
	}
	chanOrder.mu.Lock()
	s.chanHeld = true
	s.ordered = true
}

// dropChanOrder lets chanOrder.mu go if s holds it and makes no event after
// all (tests).
func (s *Stream) dropChanOrder() {
	if s.chanHeld {
		s.chanHeld = false
		s.ordered = len(s.pendingChans) != 0
		chanOrder.mu.Unlock()
	}
}

// appendOrdered appends s's event with append under chanOrder.mu, and then
// publishes the channels that the event numbered: they crossed at this
// event, in log order.
func (s *Stream) appendOrdered(append func() uint64) uint64 {
	if !s.chanHeld {
		chanOrder.mu.Lock()
	}
	s.chanHeld = false
	seq := append()
	if len(s.pendingChans) != 0 {
		o := captureObjects
		o.mu.Lock()
		for _, p := range s.pendingChans {
			if chanOrder.pending[p]--; chanOrder.pending[p] <= 0 {
				delete(chanOrder.pending, p)
			}
		}
		o.mu.Unlock()
		clear(s.pendingChans)
		s.pendingChans = s.pendingChans[:0]
	}
	s.ordered = false
	chanOrder.mu.Unlock()
	return seq
}

// crossed reports whether x (a channel, or a pointer to a sync primitive)
// has an object ID: it crossed the boundary.
func crossed(x any) bool {
	p := ptrOf(x)
	if p == nil {
		return false
	}
	if replaying {
		play.objMu.Lock()
		_, ok := play.ids[p]
		play.objMu.Unlock()
		return ok
	}
	// knownLocked, heap objects first (the common case).
	o := captureObjects
	o.mu.Lock()
	e := o.ids.find(uintptr(p))
	ok := e != nil
	if ok {
		ok = weakIs(e.wp, p)
	} else {
		_, ok = o.code[uintptr(p)]
	}
	if ok && chanOrder.pending != nil {
		_, pending := chanOrder.pending[uintptr(p)]
		ok = !pending // numbered by an event not in the log yet
	}
	o.mu.Unlock()
	return ok
}
