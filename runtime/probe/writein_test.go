package probe

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// TestWriteInErrorVariable: an exported error variable is checked before
// every top-level incall without being encoded again while it holds the
// same registered sentinel; every change made by external code between
// incalls is still a WRITE_IN with the new value (another sentinel, an
// error that is not one, the first sentinel again), and a change made by
// observed code during an incall is not. Watched as generated code does
// (WatchAt: compared by identity without calling Enc) and with Enc alone.
func TestWriteInErrorVariable(t *testing.T) {
	errA := errors.New("writein test: a")
	errB := errors.New("writein test: b")
	value.RegisterSentinel("example.com/w.ErrA", errA)
	value.RegisterSentinel("example.com/w.ErrB", errB)
	for _, at := range []bool{true, false} {
		t.Run(map[bool]string{true: "WatchAt", false: "Watch"}[at], func(t *testing.T) {
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
			encs := 0
			v := &Var{Name: "example.com/w.Err", Enc: func(s *Stream) { encs++; s.Error(errVar) }}
			if at {
				WatchAt(v, &errVar)
			} else {
				Watch(v)
			}

			site := &Site{Name: "example.com/w.F"}
			call := func(during func()) { incallDuring(site, during) }
			call(nil)
			encs0 := encs
			call(nil)
			if at && encs != encs0 {
				t.Errorf("an incall with the variable unchanged encoded it %d times, want 0", encs-encs0)
			}
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
		})
	}
}

type plainOption struct {
	Name  string
	Limit int
	Ratio [2]float64
}

// TestWriteInByMemory: variables of types whose encoding is a function of
// their memory (WatchAt: a string, an int, a struct of such) are compared
// by their bytes, not encoded, while unchanged; every value change by
// external code is a WRITE_IN, among them a return to an earlier value;
// an equal string in other memory is none (and becomes the memory the
// checks compare with); a change by observed code is the new baseline.
func TestWriteInByMemory(t *testing.T) {
	var got []string
	CaptureTo(func(e *eventlog.Event) uint64 {
		if e.Kind == eventlog.KindWriteIn {
			r, err := value.Render(e.Values)
			if err != nil {
				t.Errorf("WRITE_IN %s: %v", e.Site, err)
			}
			got = append(got, e.Site+"="+r)
		}
		return 1
	})
	defer CaptureTo(nil)
	restoreWatched(t)
	name, limit, opt := "alpha", 1, plainOption{Name: "x", Limit: 2}
	encs := 0
	vName := &Var{Name: "w.Name", Enc: func(s *Stream) { encs++; s.String(name) }}
	vLimit := &Var{Name: "w.Limit", Enc: func(s *Stream) { encs++; s.Int(int64(limit)) }}
	vOpt := &Var{Name: "w.Opt", Enc: func(s *Stream) { encs++; Encode(s, opt) }}
	WatchAt(vName, &name)
	WatchAt(vLimit, &limit)
	WatchAt(vOpt, &opt)
	for _, v := range []*Var{vName, vLimit, vOpt} {
		if v.cmp != byMemory {
			t.Fatalf("%s: compared %d, want byMemory", v.Name, v.cmp)
		}
	}
	site := &Site{Name: "w.F"}
	call := func(during func()) { incallDuring(site, during) }
	call(nil)
	encs = 0
	call(nil)
	if encs != 0 {
		t.Errorf("an incall with nothing changed encoded %d variables", encs)
	}
	name = strings.Clone(name) // the same string elsewhere: no WRITE_IN
	call(nil)
	if m := vName.last.Load().mem; m == nil || *(*string)(m) != name || unsafe.StringData(*(*string)(m)) != unsafe.StringData(name) {
		t.Errorf("the checks do not compare with the string's new memory")
	}
	encs = 0
	call(nil)
	if encs != 0 {
		t.Errorf("after an equal string elsewhere: %d variables encoded", encs)
	}
	limit = 3
	call(nil)
	opt.Ratio[1] = 0.5
	call(nil)
	opt.Ratio[1] = 0 // back to the first value
	name = "b"
	call(nil)
	call(func() { limit = 4 }) // observed code: the new baseline
	call(nil)
	limit = 1
	call(nil)
	want := []string{
		"w.Limit=3",
		`w.Opt={"x", 2, [0 0.5]}`,
		`w.Name="b"`,
		`w.Opt={"x", 2, [0 0]}`,
		"w.Limit=1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("WRITE_IN events:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestWriteInWrittenWhileEncoded: a variable compared by memory that is
// written between the copy of its memory and its encoding (another
// goroutine's write, simulated by Enc) keeps no copy: a copy of the old
// value with the new value's encoding would take the variable's return to
// the old value for no change.
func TestWriteInWrittenWhileEncoded(t *testing.T) {
	var got []string
	CaptureTo(func(e *eventlog.Event) uint64 {
		if e.Kind == eventlog.KindWriteIn {
			r, _ := value.Render(e.Values)
			got = append(got, r)
		}
		return 1
	})
	defer CaptureTo(nil)
	restoreWatched(t)
	limit, race := 1, 0
	v := &Var{Name: "w.Limit", Enc: func(s *Stream) {
		if race--; race == 0 {
			limit = 2
		}
		s.Int(int64(limit))
	}}
	WatchAt(v, &limit)
	site := &Site{Name: "w.F"}
	call := func(during func()) { incallDuring(site, during) }
	// Observed code sets 7; the refresh after the incall encodes it twice
	// (without the lock, then taking the new baseline), and the variable is
	// set to 2 during the second.
	call(func() { limit, race = 7, 2 })
	limit = 7 // external code: back to the value the refresh copied
	call(nil)
	if strings.Join(got, " ") != "7" {
		t.Fatalf("WRITE_IN events %q, want one of 7", got)
	}
}

// TestPlainMemory: the types compared by memory are those whose encoding
// depends on nothing but their bytes.
func TestPlainMemory(t *testing.T) {
	type withPtr struct {
		N int
		P *int
	}
	for _, c := range []struct {
		t    reflect.Type
		want bool
	}{
		{reflect.TypeFor[bool](), true},
		{reflect.TypeFor[uint16](), true},
		{reflect.TypeFor[complex128](), true},
		{reflect.TypeFor[string](), true},
		{reflect.TypeFor[plainOption](), true},
		{reflect.TypeFor[[3]string](), true},
		{reflect.TypeFor[struct{}](), true},
		{reflect.TypeFor[[]int](), false},
		{reflect.TypeFor[*int](), false},
		{reflect.TypeFor[map[string]int](), false},
		{reflect.TypeFor[any](), false},
		{reflect.TypeFor[error](), false},
		{reflect.TypeFor[func()](), false},
		{reflect.TypeFor[chan int](), false},
		{reflect.TypeFor[withPtr](), false},
		{reflect.TypeFor[[2]withPtr](), false},
		{reflect.TypeFor[time.Time](), false},
		{reflect.TypeFor[unsafe.Pointer](), false},
	} {
		if got := plainMemory(c.t); got != c.want {
			t.Errorf("plainMemory(%v) = %v, want %v", c.t, got, c.want)
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
// never assigns must not look changed (pflag's CommandLine once got a
// WRITE_IN before every test's first incall, a bare reference to an object
// the log never introduced: study repro cmdline); one that external code
// points at a new object is a WRITE_IN with the object's contents,
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

// incallDuring makes one top-level incall at site; during, if not nil, runs
// inside it as the observed code's own work.
func incallDuring(site *Site, during func()) {
	s := In(site)
	f := s.Call()
	if during != nil {
		during()
	}
	s.Return(f)
}
