package minimize

import (
	"slices"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/segment"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// cpValues is a CHECKPOINT event's values with initialisation ending at
// initEnd and no state.
func cpValues(initEnd uint64) []byte {
	b := value.AppendUint(nil, 1)
	b = value.AppendUint(b, initEnd)
	b = value.AppendUint(b, 0) // object counter
	b = value.AppendUint(b, 0) // variables
	return value.AppendUint(b, 0)
}

// checkpointed writes a run with checkpoints: an init outcall, then the
// incalls A, B, C, D, each followed by a CHECKPOINT but B (refused).
func checkpointed(t *testing.T) *Log {
	t.Helper()
	evs := []eventlog.Event{
		/* 1 */ {Stream: 0, Kind: eventlog.KindCallOut, Site: "os.Getenv", Values: str("REGION")},
		/* 2 */ {Stream: 0, Kind: eventlog.KindReturnOut, Parent: 1, Site: "os.Getenv", Values: str("eu")},
		/* 3 */ {Stream: 1, Kind: eventlog.KindCallIn, Site: "example.com/p.A"},
		/* 4 */ {Stream: 1, Kind: eventlog.KindReturnIn, Parent: 3, Site: "example.com/p.A"},
		/* 5 */ {Stream: 1, Kind: eventlog.KindCheckpoint, Site: "checkpoint", Values: cpValues(2)},
		/* 6 */ {Stream: 1, Kind: eventlog.KindCallIn, Site: "example.com/p.B"},
		/* 7 */ {Stream: 1, Kind: eventlog.KindReturnIn, Parent: 6, Site: "example.com/p.B"},
		/* 8 */ {Stream: 1, Kind: eventlog.KindNoCheckpoint, Site: "checkpoint", Values: str("a goroutine started by observed code is still running")},
		/* 9 */ {Stream: 1, Kind: eventlog.KindCallIn, Site: "example.com/p.C"},
		/* 10 */ {Stream: 1, Kind: eventlog.KindReturnIn, Parent: 9, Site: "example.com/p.C"},
		/* 11 */ {Stream: 1, Kind: eventlog.KindCheckpoint, Site: "checkpoint", Values: cpValues(2)},
		/* 12 */ {Stream: 1, Kind: eventlog.KindCallIn, Site: "example.com/p.D"},
		/* 13 */ {Stream: 1, Kind: eventlog.KindReturnIn, Parent: 12, Site: "example.com/p.D"},
		/* 14 */ {Stream: 1, Kind: eventlog.KindCheckpoint, Site: "checkpoint", Values: cpValues(2)},
	}
	l, err := Read(writeSynthetic(t, "cp.arrow", "example.com/p", "00000000000000000000000000000003", evs))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func sites(c *Candidate) []string {
	var out []string
	for _, e := range c.Events {
		out = append(out, e.Kind.String()+" "+e.Site)
	}
	return out
}

// In a whole run's log, checkpoints belong to no incall and no candidate
// keeps them: replay skips them, and their state would count the incalls
// a candidate drops.
func TestCandidateDropsCheckpoints(t *testing.T) {
	l := checkpointed(t)
	if len(l.Units) != 4 {
		t.Fatalf("%d units, want A, B, C, D", len(l.Units))
	}
	c := l.Candidate([]int{1, 3})
	want := []string{"CALL_OUT os.Getenv", "RETURN_OUT os.Getenv", "CALL_IN example.com/p.B", "RETURN_IN example.com/p.B", "CALL_IN example.com/p.D", "RETURN_IN example.com/p.D"}
	if got := sites(c); !slices.Equal(got, want) {
		t.Errorf("candidate of B, D = %v, want %v", got, want)
	}
}

// A segment cut at the second checkpoint (after C): its units are the
// incalls after the checkpoint only; every candidate starts with the
// initialisation and that checkpoint, with its end of initialisation in
// the candidate's numbering, and drops the later checkpoint; the listing
// gives the input log's seqs.
func TestSegmentCandidate(t *testing.T) {
	l := checkpointed(t)
	seg, err := segment.Cut(l.Events, l.Meta, 10, len(l.Events))
	if err != nil {
		t.Fatal(err)
	}
	s := newLog(seg.Meta, seg.Events, seg.Orig)
	if s.start != 2 || len(s.Units) != 1 || s.Units[0].Site != "example.com/p.D" {
		t.Fatalf("segment: start %d, units %+v; want the checkpoint at index 2 and D", s.start, s.Units)
	}
	for _, keep := range [][]int{{0}, nil} {
		c := s.Candidate(keep)
		want := []string{"CALL_OUT os.Getenv", "RETURN_OUT os.Getenv", "CHECKPOINT checkpoint"}
		if keep != nil {
			want = append(want, "CALL_IN example.com/p.D", "RETURN_IN example.com/p.D")
		}
		if got := sites(c); !slices.Equal(got, want) {
			t.Errorf("candidate of %v = %v, want %v", keep, got, want)
		}
		if end, err := segment.InitEnd(c.Events[2].Values); err != nil || end != 2 {
			t.Errorf("the checkpoint's end of initialisation = %d, %v; want 2", end, err)
		}
	}
	if got := s.InputSeq(4); got != 12 {
		t.Errorf("InputSeq(4) = %d, want D's CALL_IN, 12", got)
	}
	if n := l.unitsBefore(11); n != 3 {
		t.Errorf("unitsBefore(11) = %d, want 3", n)
	}
}

// The checkpoint search: the first k (from the latest checkpoint back)
// whose segment fails, in a logarithmic number of tries, 0 when none does.
func TestLatestFailing(t *testing.T) {
	for _, tc := range []struct{ n, from, maxTries int }{
		{1, 1, 1}, {1, 0, 1}, {100, 1, 1}, {100, 2, 2}, {100, 37, 12}, {100, 100, 14}, {100, 0, 8}, {5, 5, 5},
	} {
		tries := 0
		got, err := latestFailing(tc.n, func(k int) (bool, error) {
			tries++
			if k < 1 || k > tc.n {
				t.Fatalf("n %d: tried k = %d", tc.n, k)
			}
			return tc.from != 0 && k >= tc.from, nil
		})
		if err != nil || got != tc.from || tries > tc.maxTries {
			t.Errorf("n %d, failing from %d: got %d (%v) in %d tries, want at most %d", tc.n, tc.from, got, err, tries, tc.maxTries)
		}
	}
}

// Several recorded panics: listed in order; the first is the default
// failure.
func TestRecordedPanics(t *testing.T) {
	p := append(value.AppendString(nil, "boom"), value.AppendString(nil, "p/p.go:9")...)
	evs := []eventlog.Event{
		/* 1 */ {Stream: 0, Kind: eventlog.KindCallIn, Site: "example.com/p.F", Values: str("one")},
		/* 2 */ {Stream: 0, Kind: eventlog.KindPanicOut, Parent: 1, Site: "example.com/p.F", Values: p},
		/* 3 */ {Stream: 0, Kind: eventlog.KindCallIn, Site: "example.com/p.G"},
		/* 4 */ {Stream: 0, Kind: eventlog.KindReturnIn, Parent: 3, Site: "example.com/p.G"},
		/* 5 */ {Stream: 0, Kind: eventlog.KindCallIn, Site: "example.com/p.H", Values: str("two")},
		/* 6 */ {Stream: 0, Kind: eventlog.KindPanicOut, Parent: 5, Site: "example.com/p.H", Values: p},
	}
	l, err := Read(writeSynthetic(t, "panics.arrow", "example.com/p", "00000000000000000000000000000004", evs))
	if err != nil {
		t.Fatal(err)
	}
	ps := l.RecordedPanics()
	if len(ps) != 2 || ps[0].Seq != 2 || ps[0].Failure.Site != "example.com/p.F" || ps[1].Seq != 6 || ps[1].Failure.PanicCall != 5 {
		t.Fatalf("RecordedPanics = %+v", ps)
	}
	if f, seq, ok := l.RecordedPanic(); !ok || seq != 2 || f.PanicCall != 1 || f.PanicEnd != 2 {
		t.Errorf("RecordedPanic = %+v, %d, %v; want F's", f, seq, ok)
	}
}
