package probe

import (
	"reflect"
	"runtime"
	"testing"
	"unsafe"
	"weak"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

type pinT struct{ a, b int64 }

// TestObjectPins: a stream's pins answer with the capture table's IDs (more
// distinct objects than slots, each seen several times, first sight
// reported once), keep what they pin alive only until the stream's
// outermost call returns, and pin neither function code nor objects
// outside the weak table.
func TestObjectPins(t *testing.T) {
	var n uint64
	CaptureTo(func(*eventlog.Event) uint64 { n++; return n })
	defer CaptureTo(nil)
	site := &Site{Name: "example.com/p.F"}
	s := In(site)
	if s == nil {
		t.Fatal("In returned nil with capture on")
	}
	objs := make([]*pinT, 3*pinSlots/2)
	for i := range objs {
		objs[i] = &pinT{a: int64(i)}
	}
	ids := make([]uint64, len(objs))
	for round := 0; round < 3; round++ {
		for i, p := range objs {
			id, first, _ := s.pins.ID(reflect.ValueOf(p), "*pinT", true)
			if first != (round == 0) {
				t.Fatalf("round %d, object %d: first sight %v", round, i, first)
			}
			if round == 0 {
				ids[i] = id
			} else if id != ids[i] {
				t.Fatalf("round %d, object %d: ID %d, was %d", round, i, id, ids[i])
			}
			if want, _, _ := captureObjects.ID(reflect.ValueOf(p), "*pinT", true); want != id {
				t.Fatalf("object %d: pins say ID %d, the table %d", i, id, want)
			}
		}
	}
	if s.pins.n != pinSlots {
		t.Fatalf("%d pins, want all %d slots in use", s.pins.n, pinSlots)
	}

	// Function code is not pinned.
	s.pins.clear()
	fn := func() {}
	s.pins.ID(reflect.ValueOf(fn), "func()", false)
	if s.pins.n != 0 {
		t.Errorf("a function value was pinned")
	}

	// An object seen only during the call: pinned (so its address cannot
	// be reused while the pins answer for it) until the call returns, then
	// collectable.
	tmp := &pinT{a: 42}
	Encode(s, tmp)
	wp := weak.Make(tmp)
	tmp = nil
	f := s.Call()
	runtime.GC()
	runtime.GC()
	if wp.Value() == nil {
		t.Fatal("an object pinned by the running call was collected")
	}
	s.Return(f)
	if s.pins.n != 0 {
		t.Fatalf("%d pins left after the outermost call returned", s.pins.n)
	}
	runtime.GC()
	runtime.GC()
	if wp.Value() != nil {
		t.Error("capture kept an object alive after the call that used it returned")
	}
	runtime.KeepAlive(objs)
}

// tableLookups is the number of lookups of the capture's object table so far.
func tableLookups() uint64 {
	captureObjects.mu.Lock()
	defer captureObjects.mu.Unlock()
	return captureObjects.lookups
}

type recentOuter struct {
	inner pinT
	c     int64
}

// TestRecentObjects: a stream answers a later outermost call's sight of an
// object it numbered before without the table (the same ID, not a first
// sight), and goes to the table when that answer could be wrong: the object
// was collected (another object at its address is a new one), or an
// orphan call's sight made it unwatched (the next watched sight must watch
// it again).
func TestRecentObjects(t *testing.T) {
	var n uint64
	CaptureTo(func(*eventlog.Event) uint64 { n++; return n })
	defer CaptureTo(nil)
	site := &Site{Name: "example.com/p.F"}
	call := func(see func(s *Stream)) {
		t.Helper()
		s := In(site)
		if s == nil {
			t.Fatal("In returned nil with capture on")
		}
		see(s)
		s.Return(s.Call())
	}

	// Seen again in a later call: no table lookup.
	recv := &pinT{a: 1}
	var id1 uint64
	call(func(s *Stream) { id1, _, _ = s.pins.ID(reflect.ValueOf(recv), "*pinT", true) })
	before := tableLookups()
	call(func(s *Stream) {
		id, first, _ := s.pins.ID(reflect.ValueOf(recv), "*pinT", true)
		if id != id1 || first {
			t.Errorf("second call: ID %d first %v, want %d, false", id, first, id1)
		}
	})
	if got := tableLookups() - before; got != 0 {
		t.Errorf("a recent object's sight in a later call took %d table lookups, want 0", got)
	}

	// Collected: an entry for its address (as if a new object were
	// allocated there) does not answer for the new object.
	var s *Stream
	old := &pinT{a: 2}
	var oldID uint64
	call(func(st *Stream) { s = st; oldID, _, _ = st.pins.ID(reflect.ValueOf(old), "*pinT", true) })
	old = nil
	runtime.GC()
	runtime.GC()
	fresh := &pinT{a: 3}
	slot := -1
	for i := range s.pins.recent {
		if s.pins.recent[i].id == oldID {
			slot = i
		}
	}
	if slot < 0 {
		t.Fatal("the collected object was not remembered")
	}
	s.pins.recentAddr[slot] = uintptr(unsafe.Pointer(fresh))
	call(func(s *Stream) {
		id, first, _ := s.pins.ID(reflect.ValueOf(fresh), "*pinT", true)
		if id == oldID || !first {
			t.Errorf("new object at a collected object's address: ID %d first %v, want a new ID (not %d), first", id, first, oldID)
		}
	})

	// Made unwatched by an orphan call's sight as a larger type: the next
	// watched sight goes to the table, which watches it again.
	outer := &recentOuter{inner: pinT{a: 4}}
	call(func(s *Stream) { s.pins.ID(reflect.ValueOf(&outer.inner), "*pinT", true) })
	call(func(s *Stream) {
		s.pins.orphan = true // as Out sets it for an orphan outcall
		s.pins.ID(reflect.ValueOf(outer), "*recentOuter", true)
	})
	call(func(s *Stream) { s.pins.ID(reflect.ValueOf(&outer.inner), "*pinT", true) })
	captureObjects.mu.Lock()
	e := *captureObjects.ids.find(uintptr(unsafe.Pointer(outer)))
	captureObjects.mu.Unlock()
	if e.unwatched {
		t.Error("an object made unwatched by an orphan sight stayed unwatched after a watched sight")
	}
	runtime.KeepAlive(recv)
	runtime.KeepAlive(fresh)
	runtime.KeepAlive(outer)
}
