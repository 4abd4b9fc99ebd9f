package probe

import (
	"reflect"
	"runtime"
	"testing"
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
