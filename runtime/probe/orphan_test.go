package probe

import (
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// F62: a function value of the observed set called by external code (a
// returned handler) on a goroutine that makes incalls too: its outcall is
// recorded, and the goroutine's later incalls are recorded as top-level
// incalls, not taken for calls inside the observed set.
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
