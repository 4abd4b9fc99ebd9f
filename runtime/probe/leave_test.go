package probe

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// leaveTestCache is shaped like corpus reaper's *Cache:
// unexported state a goroutine of the observed set writes under the
// object's own lock, next to exported fields external code may read.
type leaveTestCache struct {
	Name  string
	mu    sync.Mutex
	items map[string]int
	n     int
	leaveTestInner
}

type leaveTestInner struct {
	Promoted int
	hidden   int
}

func init() {
	value.RegisterOwnType(reflect.TypeFor[leaveTestCache]())
	value.RegisterOwnType(reflect.TypeFor[leaveTestInner]())
}

// leaveTestEvents captures what f does and returns its events rendered as
// "KIND values", in order.
func leaveTestEvents(t *testing.T, f func()) []string {
	var mu sync.Mutex
	var got []string
	CaptureTo(func(e *eventlog.Event) uint64 {
		v, err := value.Render(e.Values)
		if err != nil {
			t.Errorf("%s: %v", e.Kind, err)
		}
		mu.Lock()
		got = append(got, e.Kind.String()+" "+v)
		mu.Unlock()
		return 1
	})
	defer CaptureTo(nil)
	restoreWatchedFields(t)
	f()
	return got
}

// TestObjectLeavingCarriesExportedFieldsOnly: an observed object seen for
// the first time as it leaves the set (an incall's result, an outcall's
// argument, a panic leaving an incall) is recorded by type, ID and its
// exported fields (promoted ones included), never its unexported fields;
// one seen for the first time as it enters (an incall's argument, an
// outcall's result) keeps its whole contents, which replay rebuilds.
func TestObjectLeavingCarriesExportedFieldsOnly(t *testing.T) {
	const secret = 777001 // in every unexported field: must not appear in a leaving object
	mk := func(name string) *leaveTestCache {
		return &leaveTestCache{Name: name, items: map[string]int{"k": secret}, n: secret,
			leaveTestInner: leaveTestInner{Promoted: 3, hidden: secret}}
	}
	in, out := &Site{Name: "example.com/c.F"}, &Site{Name: "example.com/ext.G"}
	result, arg, panicked := mk("result"), mk("arg"), mk("panicked")
	inArg, outResult := mk("inArg"), mk("outResult")
	got := leaveTestEvents(t, func() {
		s := In(in)
		Encode(s, inArg) // CALL_IN argument: enters
		f := s.Call()
		o := Out(out)
		Encode(s, arg) // CALL_OUT argument: leaves
		g := o.Call()
		Encode(o, outResult) // RETURN_OUT result: enters
		o.Return(g)
		Encode(s, result) // RETURN_IN result: leaves
		Encode(s, inArg)  // seen before: a reference
		s.Return(f)

		func() {
			defer func() { recover() }()
			s := In(in)
			f := s.Call()
			defer s.Recover(f)
			panic(panicked) // PANIC_OUT: leaves
		}()
	})
	typ := "*github.com/rules-capture/rules_capture/runtime/probe.leaveTestCache"
	var leaving, entering []string
	for _, e := range got {
		switch {
		case strings.HasPrefix(e, "CALL_OUT"), strings.HasPrefix(e, "RETURN_IN"), strings.HasPrefix(e, "PANIC_OUT"):
			leaving = append(leaving, e)
		case strings.HasPrefix(e, "CALL_IN"), strings.HasPrefix(e, "RETURN_OUT"):
			entering = append(entering, e)
		}
	}
	if len(leaving) != 3 || len(entering) != 3 {
		t.Fatalf("events:\n%s", strings.Join(got, "\n"))
	}
	for _, name := range []string{"arg", "result", "panicked"} {
		want := fmt.Sprintf(`={Name: %q, Promoted: 3}`, name)
		if !strings.Contains(strings.Join(leaving, "\n"), typ+"#") || !strings.Contains(strings.Join(leaving, "\n"), want) {
			t.Errorf("no leaving event holds %s; leaving:\n%s", want, strings.Join(leaving, "\n"))
		}
	}
	for _, e := range leaving {
		if strings.Contains(e, fmt.Sprint(secret)) {
			t.Errorf("a leaving object carries unexported contents: %s", e)
		}
	}
	for _, name := range []string{"inArg", "outResult"} {
		// The whole record: Name, mu, items, n, the embedded struct.
		found := false
		for _, e := range entering {
			found = found || strings.Contains(e, fmt.Sprintf(`={%q, `, name)) &&
				strings.Contains(e, fmt.Sprintf(`map["k":%d], %d, {3, %d}}`, secret, secret, secret))
		}
		if !found {
			t.Errorf("no entering event holds %s whole; entering:\n%s", name, strings.Join(entering, "\n"))
		}
	}
	if !strings.HasPrefix(leaving[1], "RETURN_IN ") || strings.Count(leaving[1], "=") != 1 {
		t.Errorf("%s: the object that entered before should be a reference", leaving[1])
	}
}

// TestObjectLeavingNotReadWhileItsGoroutineWrites reproduces the race of
// corpus reaper (race build) deterministically enough: an incall returns a new observed object
// whose goroutine (started by observed code) keeps writing the object's
// map and counter under the object's own lock. The capture must not read
// them: run under -race, reading them is a reported race; without -race,
// iterating the map while the goroutine writes it is Go's fatal
// "concurrent map iteration and map write", which kills the test binary.
func TestObjectLeavingNotReadWhileItsGoroutineWrites(t *testing.T) {
	site, goSite := &Site{Name: "example.com/c.New"}, &Site{Name: "go func literal in example.com/c.New"}
	got := leaveTestEvents(t, func() {
		for round := 0; round < 200; round++ {
			c := &leaveTestCache{Name: "c", items: map[string]int{}}
			stop, started := make(chan struct{}), make(chan struct{})
			var done sync.WaitGroup
			done.Go(func() { // the reaper: observed code's goroutine
				close(started)
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					c.mu.Lock()
					c.items[fmt.Sprint(i%64)] = i
					if i%3 == 0 {
						delete(c.items, fmt.Sprint((i+7)%64))
					}
					c.n++
					c.mu.Unlock()
				}
			})
			<-started
			s := In(site)
			f := s.Call()
			Go(goSite)   // a GO event, as New's, between the CALL_IN and the result
			Encode(s, c) // the result, on its first sight
			s.Return(f)
			close(stop)
			done.Wait()
		}
	})
	if len(got) != 600 || !strings.Contains(got[2], `={Name: "c", Promoted: 0}`) {
		t.Fatalf("%d events, the first return %q", len(got), got[min(2, len(got)-1)])
	}
}
