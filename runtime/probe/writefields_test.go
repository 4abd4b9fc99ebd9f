package probe

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// fieldsTestFlag is shaped like pflag's Flag and FlagSet: exported fields of
// several kinds, an unexported one, and exported fields promoted from an
// unexported struct embedded by value.
type fieldsTestFlag struct {
	Name   string
	NoOpt  string
	Hidden bool
	Usage  func()
	Allow  fieldsTestAllow
	n      int
	fieldsTestInner
}

type fieldsTestAllow struct{ Unknown bool }

type fieldsTestInner struct {
	Promoted int
	hidden   int
}

// fieldsTestPlain has no exported field: it is never watched.
type fieldsTestPlain struct{ a, b int }

func init() {
	value.RegisterOwnType(reflect.TypeFor[fieldsTestFlag]())
	value.RegisterOwnType(reflect.TypeFor[fieldsTestPlain]())
	value.RegisterOwnType(reflect.TypeFor[fieldsTestAllow]())
}

// restoreWatchedFields empties the watched objects for the test and
// restores them at its end.
func restoreWatchedFields(t testing.TB) {
	watchedFields.add.Lock()
	saved, savedAll := watchedFields.list.Load(), watchedFields.all
	watchedFields.all = nil
	watchedFields.list.Store(&[]*watchedObject{})
	watchedFields.any.Store(false)
	watchedFields.byID.Clear()
	watchedFields.add.Unlock()
	t.Cleanup(func() {
		watchedFields.add.Lock()
		watchedFields.byID.Clear()
		for _, w := range savedAll {
			watchedFields.byID.Store(w.id, w)
		}
		watchedFields.all = savedAll
		watchedFields.list.Store(saved)
		watchedFields.any.Store(saved != nil && len(*saved) > 0)
		watchedFields.add.Unlock()
	})
}

// TestWriteInFields: exported fields of an observed object that crossed the
// boundary, changed by external code between incalls, are WRITE_INs of
// that object (its ID in the receiver columns, the field's new value);
// fields changed by observed code during an incall, unexported fields and
// objects of types without exported fields are not.
func TestWriteInFields(t *testing.T) {
	var got []string
	ids := map[uint64]bool{}
	CaptureTo(func(e *eventlog.Event) uint64 {
		if e.Kind == eventlog.KindWriteIn {
			v, err := value.Render(e.Values)
			if err != nil {
				t.Error(err)
			}
			got = append(got, fmt.Sprintf("%s %s#%d = %s", e.Site, e.RecvType, e.RecvID, v))
		}
		if e.Kind == eventlog.KindReturnIn {
			if _, id, ok := value.RefOf(e.Values); ok {
				ids[id] = true
			}
		}
		return 1
	})
	defer CaptureTo(nil)
	restoreWatchedFields(t)

	site := &Site{Name: "example.com/f.Get"}
	// incall returns x (giving it an ID) after running during as observed code.
	incall := func(x any, during func()) {
		s := In(site)
		f := s.Call()
		if during != nil {
			during()
		}
		Encode(s, x)
		s.Return(f)
	}
	// One comparison for Name..Allow (the padding after Hidden joins the
	// run), one for Promoted (after the unexported n).
	if ft := fieldsOf(reflect.TypeFor[fieldsTestFlag]()); len(ft.ranges) != 2 || len(ft.fields) != 6 {
		t.Fatalf("fields %+v, ranges %+v", ft.fields, ft.ranges)
	}
	plain := &fieldsTestPlain{}
	incall(plain, nil)
	if watchedFields.any.Load() {
		t.Fatal("an object of a type without exported fields is watched")
	}
	flag := &fieldsTestFlag{Name: "x"}
	incall(flag, nil)
	if len(ids) != 2 {
		t.Fatalf("IDs %v", ids)
	}
	id := slices.Max(slices.Collect(func(yield func(uint64) bool) {
		for k := range ids {
			yield(k)
		}
	}))
	recv := fmt.Sprintf("*github.com/rules-capture/rules_capture/runtime/probe.fieldsTestFlag#%d", id)
	// A function value from outside gets its own ID at its first sight, the
	// next number. Function values are numbered by their code, once per
	// process (the code table): a repeated run of this test (-count=2) meets
	// this one known, by the ID its first run gave it.
	usage := func() {}
	usageID, usageKnown := knownObjectID(reflect.ValueOf(usage).UnsafePointer())
	if !usageKnown {
		usageID = id + 1
	}
	site2 := "(*github.com/rules-capture/rules_capture/runtime/probe.fieldsTestFlag)."

	flag.NoOpt = "true" // external code, between incalls
	plain.a = 1
	flag.n = 9 // unexported: only observed code can write it
	incall(plain, nil)
	incall(plain, func() { flag.Hidden = true; flag.Name = "y" }) // observed code
	incall(plain, nil)
	flag.Allow.Unknown = true
	flag.Promoted = 3
	flag.hidden = 4
	incall(plain, nil)
	flag.Usage = usage
	flag.Name = "z"
	incall(plain, nil)
	incall(plain, nil)

	// In the fields' memory order.
	want := []string{
		site2 + "NoOpt " + recv + ` = "true"`,
		site2 + "Allow " + recv + " = {true}",
		site2 + "Promoted " + recv + " = 3",
		site2 + "Name " + recv + ` = "z"`,
		site2 + "Usage " + recv + fmt.Sprintf(" = func()#%d", usageID),
	}
	if !slices.Equal(got, want) {
		t.Fatalf("WRITE_IN events:\n%s\nwant:\n%s", join(got), join(want))
	}
}

// knownObjectID is the capture's ID of the object (or function code) at p,
// if it has one.
func knownObjectID(p unsafe.Pointer) (uint64, bool) {
	captureObjects.mu.Lock()
	defer captureObjects.mu.Unlock()
	return captureObjects.knownLocked(p)
}

func join(ss []string) string {
	out := ""
	for _, s := range ss {
		out += "  " + s + "\n"
	}
	return out
}

// TestWatchedFieldsForgetCollected: a watched object that is collected
// leaves the watched set (the set never keeps an object alive).
func TestWatchedFieldsForgetCollected(t *testing.T) {
	CaptureTo(func(*eventlog.Event) uint64 { return 1 })
	defer CaptureTo(nil)
	restoreWatchedFields(t)
	site := &Site{Name: "example.com/f.New"}
	incall := func(x any) {
		s := In(site)
		f := s.Call()
		if x != nil {
			Encode(s, x)
		}
		s.Return(f)
	}
	kept := &fieldsTestFlag{Name: "kept"}
	incall(kept)
	func() {
		for range 10 {
			incall(&fieldsTestFlag{Name: "dropped"})
		}
	}()
	if n := len(*watchedFields.list.Load()); n != 11 {
		t.Fatalf("%d watched objects, want 11", n)
	}
	for range 3 {
		runtime.GC()
	}
	incall(nil) // the check drops the collected ones
	if n := len(*watchedFields.list.Load()); n != 1 {
		t.Fatalf("%d watched objects after the others were collected, want 1", n)
	}
	runtime.KeepAlive(kept)
}

// BenchmarkIncallWatchedFields: what watching exported fields adds to a
// top-level incall (CALL_IN + RETURN_IN, events handed to a function that
// only numbers them): nothing watched (every object that crossed is of a
// type without exported fields: one atomic load at entry and one at the
// return), then 1, 10, 100 watched objects of a type with six exported
// fields (pflag's Flag has ten), unchanged between calls (the common case:
// a raw-memory comparison per object at entry and at the return).
func BenchmarkIncallWatchedFields(b *testing.B) {
	CaptureTo(func(*eventlog.Event) uint64 { return 1 })
	defer CaptureTo(nil)
	site := &Site{Name: "example.com/f.Get"}
	incall := func(x any) {
		s := In(site)
		f := s.Call()
		if x != nil {
			Encode(s, x)
		}
		s.Return(f)
	}
	for _, n := range []int{0, 1, 10, 100} {
		name := fmt.Sprintf("watched=%d", n)
		if n == 0 {
			name = "no-exported-fields"
		}
		b.Run(name, func(b *testing.B) {
			restoreWatchedFields(b)
			var keep []any
			for i := 0; i < 100; i++ { // objects that crossed, not watched
				p := &fieldsTestPlain{a: i}
				incall(p)
				keep = append(keep, p)
			}
			for i := 0; i < n; i++ {
				f := &fieldsTestFlag{Name: fmt.Sprint(i)}
				incall(f)
				keep = append(keep, f)
			}
			if got := len(*watchedFields.list.Load()); got != n {
				b.Fatalf("%d watched objects, want %d", got, n)
			}
			reportCPU(b)
			for i := 0; i < b.N; i++ {
				incall(nil)
			}
			runtime.KeepAlive(keep)
		})
	}
}

// BenchmarkIncallReceivesWatched: a top-level incall whose argument is a
// watched object (10 watched), unchanged, alone and while another incall is
// in progress: the per-object check at entry and the refresh at the return
// (enterObjects, releaseObjects).
func BenchmarkIncallReceivesWatched(b *testing.B) {
	CaptureTo(func(*eventlog.Event) uint64 { return 1 })
	defer CaptureTo(nil)
	site := &Site{Name: "example.com/f.Use"}
	incall := func(x any) {
		s := In(site)
		Encode(s, x)
		f := s.Call()
		s.Return(f)
	}
	for _, overlapped := range []bool{false, true} {
		b.Run(fmt.Sprintf("overlapped=%v", overlapped), func(b *testing.B) {
			restoreWatchedFields(b)
			var keep []*fieldsTestFlag
			for i := 0; i < 10; i++ {
				f := &fieldsTestFlag{Name: fmt.Sprint(i)}
				incall(f)
				keep = append(keep, f)
			}
			if overlapped {
				// Another goroutine's incall stays in progress.
				entered, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
				go func() {
					s := In(site)
					f := s.Call()
					close(entered)
					<-release
					s.Return(f)
					close(done)
				}()
				<-entered
				defer func() { close(release); <-done }()
			}
			reportCPU(b)
			for i := 0; i < b.N; i++ {
				incall(keep[i%10])
			}
		})
	}
}

// TestWatchedFieldsOfIncallBegunBeforeWatching (corpus freshids, race
// build): an incall that began while nothing was watched numbers a new
// object and its callee writes the object's fields (freshids: &lv given to
// kv.Decode) —
// another goroutine's incall starting meanwhile is not alone, so it does
// not compare the fields (which raced with the callee's writes) nor record
// the callee's write as a WRITE_IN. Once both incalls have ended, a write
// between incalls is recorded again.
func TestWatchedFieldsOfIncallBegunBeforeWatching(t *testing.T) {
	var got []string
	CaptureTo(func(e *eventlog.Event) uint64 {
		if e.Kind == eventlog.KindWriteIn {
			got = append(got, e.Site)
		}
		return 1
	})
	defer CaptureTo(nil)
	restoreWatchedFields(t)
	site := &Site{Name: "example.com/f.Available"}

	x := &fieldsTestFlag{Name: "sku-1"}
	numbered, checked, done := make(chan bool), make(chan bool), make(chan bool)
	go func() {
		defer close(done)
		s := In(site) // nothing is watched yet
		f := s.Call()
		Encode(s, x) // x gets its ID: watched from now on
		x.NoOpt = "decoded"
		numbered <- true
		<-checked // the other incall began while this one is in progress
		x.Promoted = 7
		s.Return(f)
	}()
	<-numbered
	if !watchedFields.any.Load() {
		t.Fatal("x is not watched")
	}
	s := In(site)
	f := s.Call()
	checked <- true
	<-done
	s.Return(f)
	if len(got) != 0 {
		t.Fatalf("writes during an incall recorded as WRITE_IN: %v", got)
	}

	x.Name = "sku-2" // external code, between incalls
	s = In(site)
	s.Return(s.Call())
	if want := []string{"(*github.com/rules-capture/rules_capture/runtime/probe.fieldsTestFlag).Name"}; !slices.Equal(got, want) {
		t.Fatalf("WRITE_IN events %v, want %v", got, want)
	}
}

// TestWatchedFieldsConcurrentOutParams: goroutines that each number a new
// object in their incall and then write its fields, as freshids' callers
// of stock.Available do with kv.Decode, record no WRITE_IN; under -race
// (go test -race), the entry checks of other incalls must not race with
// those writes (the race corpus freshids met).
func TestWatchedFieldsConcurrentOutParams(t *testing.T) {
	var mu sync.Mutex
	var got []string
	CaptureTo(func(e *eventlog.Event) uint64 {
		if e.Kind == eventlog.KindWriteIn {
			mu.Lock()
			got = append(got, e.Site)
			mu.Unlock()
		}
		return 1
	})
	defer CaptureTo(nil)
	restoreWatchedFields(t)
	site := &Site{Name: "example.com/f.Available"}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				s := In(site)
				f := s.Call()
				x := &fieldsTestFlag{Name: "sku"}
				Encode(s, x)
				runtime.Gosched() // let the other goroutines' incalls begin
				x.NoOpt = "decoded"
				x.Promoted = g*100 + i
				s.Return(f)
			}
		})
	}
	wg.Wait()
	if len(got) != 0 {
		t.Fatalf("%d writes during incalls recorded as WRITE_IN, first %s", len(got), got[0])
	}
}

// TestWatchedFieldsOfReceivedObjectWhileOthersRun (corpus concfields,
// go-runewidth's TestRuneWidthConcurrent): while another incall is in
// progress, an incall that receives a watched object records external
// code's write of its fields just before its CALL_IN; an object that another
// incall in progress received is not compared (that incall's observed code
// may be writing it), and what that incall's observed code left is not
// taken for external code's write afterwards.
func TestWatchedFieldsOfReceivedObjectWhileOthersRun(t *testing.T) {
	var got []string
	CaptureTo(func(e *eventlog.Event) uint64 {
		switch e.Kind {
		case eventlog.KindWriteIn:
			got = append(got, e.Site[strings.LastIndexByte(e.Site, '.')+1:])
		case eventlog.KindCallIn:
			got = append(got, "CALL_IN")
		}
		return 1
	})
	defer CaptureTo(nil)
	restoreWatchedFields(t)
	site := &Site{Name: "example.com/f.Use"}
	incall := func(x any) {
		s := In(site)
		Encode(s, x)
		s.Return(s.Call())
	}
	x, y := &fieldsTestFlag{Name: "x"}, &fieldsTestFlag{Name: "y"}
	incall(x)
	incall(y)

	// An incall in progress on another goroutine, which received y and
	// whose observed code writes it.
	entered, wrote, release, done := make(chan bool), make(chan bool), make(chan bool), make(chan bool)
	go func() {
		defer close(done)
		s := In(site)
		Encode(s, y)
		f := s.Call()
		entered <- true
		y.NoOpt = "observed"
		wrote <- true
		<-release
		s.Return(f)
	}()
	<-entered
	<-wrote
	got = got[:0]
	x.Hidden = true // external code, while the other incall runs
	incall(x)
	incall(y) // y's change is observed code's
	release <- true
	<-done
	incall(y) // still observed code's: taken as y's shadow when that incall ended
	if want := []string{"Hidden", "CALL_IN", "CALL_IN", "CALL_IN"}; !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
}
