package probe

import (
	"errors"
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
	saved := watched.vars
	watched.Unlock()
	t.Cleanup(func() {
		watched.Lock()
		watched.vars = saved
		watched.list.Store(&saved)
		watched.any.Store(len(saved) > 0)
		watched.Unlock()
	})
}
