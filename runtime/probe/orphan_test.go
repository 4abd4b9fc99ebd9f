package probe

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// A function value of the observed set called by external code (a
// returned handler) on a goroutine that makes incalls too: its outcall is
// recorded, and the goroutine's later incalls are recorded as top-level
// incalls, not taken for calls inside the observed set (before, they went
// unrecorded: study repro fieldsoverlap, TestIncallAfterHandlerOnSameGoroutine).
func TestIncallAfterOrphanOutcallOnSameGoroutine(t *testing.T) {
	type rec struct {
		kind   eventlog.Kind
		site   string
		parent uint64
	}
	var got []rec
	CaptureTo(func(e *eventlog.Event) uint64 {
		got = append(got, rec{e.Kind, e.Site, e.Parent})
		return uint64(len(got))
	})
	defer CaptureTo(nil)
	ping := &Site{Name: "example.com/p.Ping", Pos: "p/p.go:1"}
	decode := &Site{Name: "example.com/ext.Decode", Pos: "p/p.go:2"}
	incall := func() {
		if s := In(ping); s != nil {
			s.Return(s.Call())
		}
	}
	orphanOutcall := func() {
		if s := Out(decode); s != nil {
			s.Return(s.Call())
		}
	}
	// A goroutine of its own, as a test's: CaptureTo binds this one as
	// package initialisation's.
	done := make(chan struct{})
	go func() {
		defer close(done)
		incall()
		orphanOutcall() // the handler's outcalls, the handler called by the test itself
		orphanOutcall()
		incall()
	}()
	<-done
	want := []rec{
		{eventlog.KindCallIn, ping.Name, 0}, {eventlog.KindReturnIn, ping.Name, 1},
		{eventlog.KindCallOut, decode.Name, 0}, {eventlog.KindReturnOut, decode.Name, 3},
		{eventlog.KindCallOut, decode.Name, 0}, {eventlog.KindReturnOut, decode.Name, 5},
		{eventlog.KindCallIn, ping.Name, 0}, {eventlog.KindReturnIn, ping.Name, 7},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d events, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

// An object first numbered by an orphan outcall (a returned handler
// decoding a request) is not watched: replay skips the orphan's events and
// never makes it, so external writes to its fields are no WRITE_IN. Once an
// incall replay does replay names it, it is watched from then on, with the
// fields it holds at that moment as the shadow (before, the example shop's
// api handlers gave spurious WRITE_INs: study repro fieldsoverlap).
func TestOrphanBornObjectWatchedOnlyOnceAnIncallNamesIt(t *testing.T) {
	var got []string
	CaptureTo(func(e *eventlog.Event) uint64 {
		if e.Kind == eventlog.KindWriteIn {
			v, err := value.Render(e.Values)
			if err != nil {
				t.Error(err)
			}
			got = append(got, fmt.Sprintf("%s #%d = %s", e.Site[strings.LastIndexByte(e.Site, '.')+1:], e.RecvID, v))
		}
		return 1
	})
	defer CaptureTo(nil)
	restoreWatchedFields(t)
	ping := &Site{Name: "example.com/p.Ping", Pos: "p/p.go:1"}
	decode := &Site{Name: "example.com/ext.Decode", Pos: "p/p.go:2"}
	incall := func(x any) {
		if s := In(ping); s != nil {
			f := s.Call()
			if x != nil {
				Encode(s, x)
			}
			s.Return(f)
		}
	}
	req := &fieldsTestFlag{}
	var reqID uint64
	done := make(chan struct{})
	go func() {
		defer close(done)
		incall(nil)
		// The handler's orphan outcall: the request gets its ID here.
		if s := Out(decode); s != nil {
			Encode(s, req)
			f := s.Call()
			req.Name = "cust-0030" // the decoder, external code
			s.Return(f)
		}
		captureObjects.mu.Lock()
		reqID, _ = captureObjects.knownLocked(unsafe.Pointer(req))
		captureObjects.mu.Unlock()
		incall(nil) // before the fix: a WRITE_IN of Name on the request
		req.NoOpt = "orphan"
		incall(nil)
		incall(req)      // replay makes the request here: watched from now on
		req.Promoted = 7 // external code, between incalls
		incall(nil)
	}()
	<-done
	if reqID == 0 {
		t.Fatal("the orphan outcall gave the request no ID")
	}
	want := []string{fmt.Sprintf("Promoted #%d = 7", reqID)}
	if !slices.Equal(got, want) {
		t.Fatalf("WRITE_IN events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// An observed function value passed by orphan code's outcall (a
// returned handler's storage code handing its transaction to bolt's Batch)
// and called back by external code on a goroutine of its own: replay skips
// that callback as it skips the outcall that passed it, so the
// objects the callback numbers are not watched either, until an incall
// replay does replay names them (study repro orphancallback).
func TestObjectBornInCallbackOfOrphanOutcallWatchedOnlyOnceAnIncallNamesIt(t *testing.T) {
	var got []string
	CaptureTo(func(e *eventlog.Event) uint64 {
		if e.Kind == eventlog.KindWriteIn {
			v, err := value.Render(e.Values)
			if err != nil {
				t.Error(err)
			}
			got = append(got, fmt.Sprintf("%s #%d = %s", e.Site[strings.LastIndexByte(e.Site, '.')+1:], e.RecvID, v))
		}
		return 1
	})
	defer CaptureTo(nil)
	restoreWatchedFields(t)
	ping := &Site{Name: "example.com/p.Ping", Pos: "p/p.go:1"}
	batch := &Site{Name: "example.com/ext.Batch", Pos: "p/p.go:2"}
	decode := &Site{Name: "example.com/ext.Decode", Pos: "p/p.go:3"}
	incall := func(x any) {
		if s := In(ping); s != nil {
			f := s.Call()
			if x != nil {
				Encode(s, x)
			}
			s.Return(f)
		}
	}
	order := &fieldsTestFlag{}
	var orderID uint64
	// The observed closure the handler passes to Batch: it decodes into a
	// fresh order through an outcall.
	body := func() {
		if s := Out(decode); s != nil {
			Encode(s, order)
			f := s.Call()
			order.Name = "ord-00000001" // the decoder, external code
			s.Return(f)
		}
		captureObjects.mu.Lock()
		orderID, _ = captureObjects.knownLocked(unsafe.Pointer(order))
		captureObjects.mu.Unlock()
	}
	markObservedFunc(t, body)
	done := make(chan struct{})
	go func() {
		defer close(done)
		incall(nil)
		// The handler's orphan outcall: Batch runs the function it is
		// passed on a goroutine of its own.
		if s := Out(batch); s != nil {
			cb := Callback(body)
			f := s.Call()
			ran := make(chan struct{})
			go func() { defer close(ran); cb() }()
			<-ran
			s.Return(f)
		}
		incall(nil) // before the fix: a WRITE_IN of Name on the order
		order.NoOpt = "orphan"
		incall(nil)
		incall(order)      // replay makes the order here: watched from now on
		order.Promoted = 7 // external code, between incalls
		incall(nil)
	}()
	<-done
	if orderID == 0 {
		t.Fatal("the callback's outcall gave the order no ID")
	}
	want := []string{fmt.Sprintf("Promoted #%d = 7", orderID)}
	if !slices.Equal(got, want) {
		t.Fatalf("WRITE_IN events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// markObservedFunc makes ObservedFunc take fn for a function value of the
// observed set for the rest of the test.
func markObservedFunc(t *testing.T, fn any) {
	pc := reflect.ValueOf(fn).Pointer()
	observedFuncs.Store(pc, true)
	t.Cleanup(func() { observedFuncs.Delete(pc) })
}
