package probe

import (
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// emit copies a site's strings into the stream's event only when the site
// changes: events of different sites, with and without a receiver, must
// still each carry their own site, position and receiver type.
func TestEmitKeepsEachEventsSiteAndReceiver(t *testing.T) {
	type rec struct{ site, pos, recvType string }
	var got []rec
	CaptureTo(func(e *eventlog.Event) uint64 {
		got = append(got, rec{e.Site, e.Pos, e.RecvType})
		return uint64(len(got))
	})
	defer CaptureTo(nil)
	a := &Site{Name: "example.com/p.A", Pos: "p/a.go:1"}
	b := &Site{Name: "(*example.com/p.T).B", Pos: "p/b.go:2"}
	call := func(site *Site, recv bool) {
		s := In(site)
		if s == nil {
			t.Fatal("In returned nil with capture on")
		}
		if recv {
			s.recvType = "*example.com/p.T"
		}
		s.Int(1)
		f := s.Call()
		s.Return(f)
	}
	var x int64
	Watch(&Var{Name: "example.com/p.X", Enc: func(s *Stream) { s.Int(x) }})
	call(a, false)
	call(b, true)
	call(b, false)
	call(a, false)
	x = 1 // external code sets an exported variable: WRITE_IN before the next incall
	call(a, false)
	want := []rec{
		{a.Name, a.Pos, ""}, {a.Name, a.Pos, ""},
		{b.Name, b.Pos, "*example.com/p.T"}, {b.Name, b.Pos, ""},
		{b.Name, b.Pos, ""}, {b.Name, b.Pos, ""},
		{a.Name, a.Pos, ""}, {a.Name, a.Pos, ""},
		{"example.com/p.X", "", ""},
		{a.Name, a.Pos, ""}, {a.Name, a.Pos, ""},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d events, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}
