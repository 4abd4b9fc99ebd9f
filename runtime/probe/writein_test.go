package probe

import (
	"errors"
	"reflect"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// TestWriteInErrorVariable: an exported error variable is checked before
// every top-level incall without being encoded again while it holds the
// same registered sentinel; every change made by external code between
// incalls is still a WRITE_IN with the new value (another sentinel, an
// error that is not one, the first sentinel again), and a change made by
// observed code during an incall is not.
func TestWriteInErrorVariable(t *testing.T) {
	errA := errors.New("writein test: a")
	errB := errors.New("writein test: b")
	value.RegisterSentinel("example.com/w.ErrA", errA)
	value.RegisterSentinel("example.com/w.ErrB", errB)
	errVar := errA
	var got []string
	CaptureTo(func(e *eventlog.Event) uint64 {
		if e.Kind == eventlog.KindWriteIn {
			d := value.Decoder{Buf: e.Values}
			err := d.DecodeError()
			got = append(got, e.Site+"="+err.Error())
		}
		return 1
	})
	defer CaptureTo(nil)
	restoreWatched(t)
	Watch(&Var{Name: "example.com/w.Err", Enc: func(s *Stream) { s.Error(errVar) }})

	site := &Site{Name: "example.com/w.F"}
	call := func(during func()) {
		s := In(site)
		f := s.Call()
		if during != nil {
			during()
		}
		s.Return(f)
	}
	call(nil)
	errVar = errB // external code sets it
	call(nil)
	call(nil)
	errVar = errors.New("writein test: not a sentinel")
	call(nil)
	errVar = errA
	call(func() { errVar = errB }) // observed code sets it: the new baseline
	call(nil)
	errVar = errA
	call(nil)
	want := []string{
		"example.com/w.Err=writein test: b",
		"example.com/w.Err=writein test: not a sentinel",
		"example.com/w.Err=writein test: a",
		"example.com/w.Err=writein test: a",
	}
	if len(got) != len(want) {
		t.Fatalf("WRITE_IN events: got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("WRITE_IN %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

// TestWriteInVariableOfSeveralErrors: the sentinel shortcut applies only to
// a variable whose whole encoding is one error; a value encoded with more
// Error calls (here: a second one once it is set) is compared in full.
func TestWriteInVariableOfSeveralErrors(t *testing.T) {
	errA := errors.New("writein test 2: a")
	value.RegisterSentinel("example.com/w2.ErrA", errA)
	first, second := error(errA), error(nil)
	n := 0
	CaptureTo(func(e *eventlog.Event) uint64 {
		if e.Kind == eventlog.KindWriteIn {
			n++
		}
		return 1
	})
	defer CaptureTo(nil)
	restoreWatched(t)
	Watch(&Var{Name: "example.com/w2.Pair", Enc: func(s *Stream) {
		s.Error(first)
		if second != nil {
			s.Error(second)
		}
	}})
	site := &Site{Name: "example.com/w2.F"}
	call := func() { s := In(site); s.Return(s.Call()) }
	call()
	second = errors.New("writein test 2: other")
	call()
	call()
	if n != 1 {
		t.Fatalf("got %d WRITE_IN events, want 1 (the change of the second error)", n)
	}
}

// restoreWatched restores the watched variables at the end of the test.
func restoreWatched(t testing.TB) {
	watched.Lock()
	saved, reserved := watched.vars, watched.reserved
	watched.Unlock()
	t.Cleanup(func() {
		watched.Lock()
		watched.vars, watched.reserved = saved, reserved
		watched.list.Store(&saved)
		watched.any.Store(len(saved) > 0)
		watched.Unlock()
	})
}

type watchedSet struct{ n int }

// An exported variable pointing at an observed object that external code
// never assigns must not look changed (study fault F24: pflag's
// CommandLine got a WRITE_IN before every test's first incall, a bare
// reference to an object the log never introduced); one that external
// code points at a new object is a WRITE_IN with the object's contents,
// once; and comparing numbers no objects, which replay would not number.
func TestWriteInComparesLikeWithLike(t *testing.T) {
	restoreWatched(t)
	value.RegisterOwnType(reflect.TypeFor[watchedSet]())
	var events []eventlog.Event
	CaptureTo(func(e *eventlog.Event) uint64 {
		c := *e
		c.Values = append([]byte(nil), e.Values...)
		events = append(events, c)
		return uint64(len(events))
	})
	defer CaptureTo(nil)

	def := &watchedSet{n: 1}
	captureObjects.mu.Lock()
	before := captureObjects.next
	captureObjects.mu.Unlock()
	// pflag's order before the fix: EndInit's snapshot, then the generated
	// init's Watch, whose baseline was the first sight of the object.
	snapshotVars()
	Watch(&Var{Name: "example.com/p.Default", Enc: func(s *Stream) { Encode(s, def) }})
	site := &Site{Name: "example.com/p.F", Pos: "p/p.go:1"}
	call := func() {
		s := In(site)
		if s == nil {
			t.Fatal("In returned nil with capture on")
		}
		s.Return(s.Call())
	}
	writeIns := func() (n int, last eventlog.Event) {
		for _, e := range events {
			if e.Kind == eventlog.KindWriteIn && e.Site == "example.com/p.Default" {
				n++
				last = e
			}
		}
		return n, last
	}

	call()
	call()
	if n, e := writeIns(); n != 0 {
		vals, _ := value.Render(e.Values)
		t.Fatalf("unchanged variable: %d WRITE_IN, the last %s", n, vals)
	}
	captureObjects.mu.Lock()
	after := captureObjects.next
	captureObjects.mu.Unlock()
	if after != before {
		t.Errorf("comparisons numbered %d objects", after-before)
	}
	snapshotVars() // EndInit, after Watch since the transform's fix
	captureObjects.mu.Lock()
	reservedID, _ := captureObjects.knownLocked(reflect.ValueOf(def).UnsafePointer())
	captureObjects.mu.Unlock()
	if reservedID < varIDs {
		t.Errorf("the variable's object has ID %d, want one of the reserved range (>= %d)", reservedID, varIDs)
	}

	def = &watchedSet{n: 2} // external code points the variable at a new object
	call()
	call()
	n, e := writeIns()
	if n != 1 {
		t.Fatalf("one assignment: %d WRITE_IN", n)
	}
	vals, err := value.Render(e.Values)
	if err != nil || vals == "" || vals[len(vals)-1] != '}' {
		t.Errorf("WRITE_IN of a new object = %q (%v), want its contents", vals, err)
	}
}
