package minimize

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rules-capture/rules_capture/runtime/probectl"
)

// Outcome of a candidate, as JINSI's: it fails the same way as the
// original log (the failure is reproduced), it passes, or it fails some
// other way (typically it needs an answer or an object of a unit it
// dropped), which tells nothing about the failure.
type Outcome int

const (
	Unresolved Outcome = iota
	Pass
	FailSame
)

func (o Outcome) String() string {
	switch o {
	case Pass:
		return "PASS"
	case FailSame:
		return "FAIL-SAME"
	}
	return "UNRESOLVED"
}

// Failure is what identifies the original failure in a replay's report.
type Failure struct {
	Reason string // the divergence's reason
	Kind   string // kind of the log's event where it diverged ("" for a crash)
	Site   string // its site
	Pos    string // where the code did it (today's file:line), for a crash
	Actual string // what the code did, when Same is SameEvent

	// Panic: the failure is a panic the log recorded, which today's code
	// still makes (a crash log of unchanged code replays as matching
	// behaviour, not as a divergence). The failure is then reproduced by a
	// candidate whose replay passes through that panic; Kind is PANIC_OUT,
	// Site the function that raised it, Pos where, Actual the panic value.
	Panic bool
	// PanicCall and PanicEnd are the seqs, in the original log, of the
	// top-level CALL_IN of the incall that panicked and of the last event
	// of the panic's way out of it (that incall's PANIC_OUT).
	PanicCall, PanicEnd uint64
}

func (f Failure) String() string {
	if f.Panic {
		return fmt.Sprintf("the code panics: %s in %s (at %s)", f.Actual, f.Site, f.Pos)
	}
	if f.Kind == "" {
		return fmt.Sprintf("%s (at %s)", f.Reason, f.Pos)
	}
	return fmt.Sprintf("%s at %s %s", f.Reason, f.Kind, f.Site)
}

// How strictly a candidate's failure must match the original's.
const (
	// SameEvent: the same reason, at an event of the same kind and site,
	// and the code did the same thing there (same rendered values). A
	// candidate that dropped the calls that set up the state the failure
	// needs usually fails at the same site with other values: this keeps
	// it out.
	SameEvent = "event"
	// SameSite: the same reason at an event of the same kind and site
	// (for a crash: the same reason and position), whatever the values.
	SameSite = "site"
)

// Replayer replays candidate logs with one harness built beforehand.
type Replayer struct {
	Harness string // replay harness of today's code
	// Baseline, if set, is a harness of the code the failure must not
	// show on (the fixed code, or the code that recorded the log): a
	// candidate that fails the same way is replayed there too, and counts
	// as failing only if it passes there.
	Baseline string
	Check    string        // check level
	Same     string        // SameEvent or SameSite
	Dir      string        // scratch folder for candidate logs and reports
	Timeout  time.Duration // limit for one replay (0: none)

	Replays int // replays run so far (baseline replays included)
	n       int
}

// Replay replays the candidate log at path with harness and returns the
// child's report.
func (r *Replayer) replay(ctx context.Context, harness, path string) (*probectl.Report, error) {
	r.Replays++
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	o, err := probectl.Run(ctx, probectl.Child{
		Harness: harness,
		Log:     path,
		Check:   r.Check,
		Report:  path + ".json",
		Stall:   os.Getenv(probectl.EnvReplayStall),
	})
	if err != nil {
		return nil, err
	}
	return o.Report, nil
}

// Try writes the candidate of keep and classifies its replay against
// want (the original failure).
func (r *Replayer) Try(ctx context.Context, l *Log, keep []int, want Failure) (Outcome, error) {
	r.n++
	path := filepath.Join(r.Dir, fmt.Sprintf("candidate-%d.arrow", r.n))
	c := l.Candidate(keep)
	if err := c.Write(path, l.Meta); err != nil {
		return Unresolved, err
	}
	defer os.Remove(path)
	defer os.Remove(path + ".json")
	rep, err := r.replay(ctx, r.Harness, path)
	if err != nil {
		if ctx.Err() != nil {
			return Unresolved, ctx.Err()
		}
		return Unresolved, nil // no verdict to trust: tells nothing
	}
	if o := r.classify(rep, l, c, want); o != FailSame {
		return o, nil
	}
	if r.Baseline != "" {
		rep, err := r.replay(ctx, r.Baseline, path)
		if err != nil || r.classify(rep, l, c, want) != Pass {
			if ctx.Err() != nil {
				return Unresolved, ctx.Err()
			}
			return Unresolved, nil
		}
	}
	return FailSame, nil
}

// classify judges one replay's report of candidate c.
func (r *Replayer) classify(rep *probectl.Report, l *Log, c *Candidate, want Failure) Outcome {
	if want.Panic {
		return panicOutcome(rep, l, c, want)
	}
	got, ok := failureOf(rep, l, c)
	switch {
	case !ok:
		return Pass
	case !r.same(got, want):
		return Unresolved
	}
	return FailSame
}

// panicOutcome judges a candidate when the failure is a recorded panic.
// A replay that passes has made every event of the candidate, the panic
// included: the code still panics there, as recorded (FAIL-SAME). A
// divergence inside the incall that panicked, up to the panic's way out of
// it, means the code did something else in that call: the panic is gone
// (PASS; with the setup calls it needs dropped, the call usually returns
// where the capture panicked). A divergence anywhere else, or no verdict,
// tells nothing (UNRESOLVED).
func panicOutcome(rep *probectl.Report, l *Log, c *Candidate, want Failure) Outcome {
	if rep.Verdict == probectl.Pass {
		return FailSame
	}
	if d := rep.Divergence; d != nil && d.Seq != 0 {
		if orig := c.OriginalSeq(d.Seq); orig != 0 && l.InPanicCall(orig, want) {
			return Pass
		}
	}
	return Unresolved
}

func (r *Replayer) same(got, want Failure) bool {
	if got.Reason != want.Reason || got.Kind != want.Kind || got.Site != want.Site {
		return false
	}
	if want.Kind == "" && got.Pos != want.Pos {
		return false
	}
	return r.Same == SameSite || got.Actual == want.Actual
}

// failureOf reads the failure out of a candidate's report; ok is false for
// a replay that passed.
func failureOf(rep *probectl.Report, l *Log, c *Candidate) (Failure, bool) {
	if rep.Verdict == probectl.Pass || rep.Divergence == nil {
		return Failure{}, false
	}
	d := rep.Divergence
	f := Failure{Reason: d.Reason, Actual: d.Actual, Pos: d.Pos}
	if strings.HasPrefix(d.Reason, "the replayed program crashed") {
		// The exit status is part of the reason; the panic and its
		// position say which crash it is.
		f.Reason = "crash"
		f.Actual, _, _ = strings.Cut(d.Actual, "\n")
		return f, true
	}
	if d.Seq >= 1 && int(d.Seq) <= len(c.Orig) {
		if e, ok := l.Event(c.Orig[d.Seq-1]); ok {
			f.Kind, f.Site = e.Kind.String(), e.Site
		}
	}
	return f, true
}

// OriginalSeq maps a seq of the candidate back to the original log's.
func (c *Candidate) OriginalSeq(seq uint64) uint64 {
	if seq >= 1 && int(seq) <= len(c.Orig) {
		return c.Orig[seq-1]
	}
	return 0
}

// SeqOf maps a seq of the original log to the candidate's (0: not kept).
func (c *Candidate) SeqOf(orig uint64) uint64 {
	i, ok := slices.BinarySearch(c.Orig, orig)
	if !ok {
		return 0
	}
	return uint64(i + 1)
}
