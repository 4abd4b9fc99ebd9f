package probe

import (
	"reflect"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// withCapture runs f capturing into events, on a goroutine that runs
// observed code.
func withCapture(t testing.TB, f func(events *[]eventlog.Event)) {
	var events []eventlog.Event
	var seq uint64
	CaptureTo(func(e *eventlog.Event) uint64 {
		seq++
		c := *e
		c.Values = append([]byte(nil), e.Values...)
		events = append(events, c)
		return seq
	})
	defer CaptureTo(nil)
	s := current()
	s.inside = true
	defer func() { s.inside = false }()
	f(&events)
}

// TestChanCrossed: an operation on a channel is an event only once the
// channel crossed the boundary (got an object ID at an event).
func TestChanCrossed(t *testing.T) {
	site := &Site{Name: "receive from ch"}
	withCapture(t, func(events *[]eventlog.Event) {
		ch := make(chan int, 1)
		if s := Chan(site, ch); s != nil {
			t.Fatal("a channel that never crossed the boundary is recorded")
		}
		if s := Select(site, ch, nil); s != nil {
			t.Fatal("a select on channels that never crossed the boundary is recorded")
		}
		captureObjects.ID(reflect.ValueOf(ch), "chan int", true) // as an event's value would
		if s := Chan(site, ch); s != nil {
			t.Fatal("a channel is recorded before the event that numbered it is in the log")
		}
		appendNumberingEvent()
		s := Chan(site, ch)
		if s == nil {
			t.Fatal("a channel that crossed the boundary is not recorded")
		}
		Recv(s, ch)
		f := s.Call()
		ch <- 7
		v, ok := <-ch
		s.Int(int64(v))
		s.Bool(ok)
		s.Return(f)
		if len(*events) != 2 || (*events)[0].Kind != eventlog.KindCallOut || (*events)[1].Kind != eventlog.KindReturnOut || (*events)[0].RecvType != "chan int" {
			t.Fatalf("events %+v, want CALL_OUT on chan int, RETURN_OUT", *events)
		}
		other := make(chan int)
		s = Select(site, other, nil, ch)
		if s == nil || s.Crossed(0) || s.Crossed(1) || !s.Crossed(2) {
			t.Fatalf("select: stream %v, want only case 2 crossed", s)
		}
		s.dropChanOrder() // no CALL_OUT follows here: let the order go
	})
}

// BenchmarkChanOp: a send and a receive on a buffered channel of the
// observed set, plain and through the probe's check (capture off; capture
// on, channel private to the observed set), and recorded as two events
// each (a channel that crossed the boundary).
func BenchmarkChanOp(b *testing.B) {
	site := &Site{Name: "receive from ch"}
	ch := make(chan int, 1)
	b.Run("plain", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			ch <- i
			<-ch
		}
	})
	b.Run("off", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if Chan(site, ch) == nil {
				ch <- i
			}
			if Chan(site, ch) == nil {
				<-ch
			}
		}
	})
	withCapture(b, func(events *[]eventlog.Event) {
		CaptureTo(func(*eventlog.Event) uint64 { return 1 })
		b.Run("private", func(b *testing.B) {
			inside(b)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if Chan(site, ch) == nil {
					ch <- i
				}
				if Chan(site, ch) == nil {
					<-ch
				}
			}
		})
		captureObjects.ID(reflect.ValueOf(ch), "chan int", true)
		appendNumberingEvent()
		b.Run("crossed", func(b *testing.B) {
			inside(b)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s := Chan(site, ch)
				Recv(s, ch)
				s.Int(int64(i))
				f := s.Call()
				ch <- i
				s.Return(f)
				s = Chan(site, ch)
				Recv(s, ch)
				f = s.Call()
				v, ok := <-ch
				s.Int(int64(v))
				s.Bool(ok)
				s.Return(f)
			}
		})
	})
}

// inside marks the benchmark's goroutine as running observed code.
func inside(b *testing.B) {
	s := current()
	s.inside = true
	b.Cleanup(func() { s.inside = false })
}

// appendNumberingEvent stands for the append of the event whose encoding
// numbered channels on the calling goroutine: they cross now (crossed.go).
func appendNumberingEvent() { current().appendOrdered(func() uint64 { return 0 }) }

// TestChannelCrossesAtItsEvent: a channel numbered while an event is
// encoded has not crossed until that event is appended, and a decision on
// crossed channels made meanwhile (holding the order, as Select and Chan
// do until their CALL_OUT is appended) is appended first: the log's order
// and the decision agree (study repro selectcross, corpus reaper).
func TestChannelCrossesAtItsEvent(t *testing.T) {
	ch := make(chan int)
	s := current()
	captureObjects.ID(reflect.ValueOf(ch), "chan int", true) // the encoding of s's event
	if crossed(ch) {
		t.Fatal("the channel crossed before the event that numbered it is in the log")
	}
	var mu sync.Mutex
	var order []string
	appendNamed := func(what string) func() uint64 {
		return func() uint64 {
			mu.Lock()
			defer mu.Unlock()
			order = append(order, what)
			return uint64(len(order))
		}
	}
	decided, release, selected := make(chan bool), make(chan struct{}), make(chan struct{})
	go func() {
		o := current()
		o.holdChanOrder()
		decided <- crossed(ch)
		<-release
		o.appendOrdered(appendNamed("select"))
		close(selected)
	}()
	if <-decided {
		t.Fatal("a decision saw the channel crossed before its event was appended")
	}
	appended := make(chan struct{})
	go func() {
		s.appendOrdered(appendNamed("numbering event"))
		close(appended)
	}()
	select {
	case <-appended:
		t.Fatal("the numbering event was appended while a decision on the channel held the order")
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	<-selected
	<-appended
	if want := []string{"select", "numbering event"}; !slices.Equal(order, want) {
		t.Fatalf("log order %q, want %q", order, want)
	}
	if !crossed(ch) {
		t.Fatal("the channel has not crossed after its event was appended")
	}
	runtime.KeepAlive(ch)
}
