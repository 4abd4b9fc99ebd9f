package minimize

import (
	"fmt"
	"io"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Listing writes the interaction of candidate c for a reader, in the
// order replay releases it: every incall with its receiver and arguments
// and what it returned, every outcall with the answer replay will give it
// (a CALL_OUT and its RETURN_OUT on one line when nothing happens between
// them), callbacks and goroutines nested where they happened, each with
// the source position the capture recorded. Lines are indented by the
// depth of calls on their stream; the event where the original replay
// diverged is marked with the failure. The seq column is the minimal
// log's, the orig column the log it was minimized from.
func Listing(w io.Writer, l *Log, c *Candidate, failSeq uint64, f Failure) {
	depth := map[uint32]int{}
	streams := map[uint32]bool{}
	for i := range c.Events {
		streams[c.Events[i].Stream] = true
	}
	for i := 0; i < len(c.Events); i++ {
		e := &c.Events[i]
		d := depth[e.Stream]
		ind := strings.Repeat("  ", d)
		var text string
		switch e.Kind {
		case eventlog.KindCallIn:
			depth[e.Stream]++
			what := "call"
			if d > 0 {
				what = "callback"
			}
			if name, ok := strings.CutPrefix(e.Site, callbackPrefix); ok {
				// A function value that external code called: its
				// receiver columns are the function value's.
				cb := *e
				cb.Site, cb.RecvType, cb.RecvID = name, "", 0
				text = fmt.Sprintf("%scallback %s", ind, callText(&cb))
				break
			}
			text = fmt.Sprintf("%s%s %s%s", ind, what, recv(e), callText(e))
		case eventlog.KindReturnIn:
			depth[e.Stream] = max(d-1, 0)
			text = fmt.Sprintf("%s= %s", strings.Repeat("  ", max(d-1, 0)), results(e.Values))
		case eventlog.KindPanicOut:
			depth[e.Stream] = max(d-1, 0)
			text = fmt.Sprintf("%spanics: %s", strings.Repeat("  ", max(d-1, 0)), results(e.Values))
		case eventlog.KindCallOut:
			// The answer follows at once for most outcalls.
			if i+1 < len(c.Events) && c.Events[i+1].Stream == e.Stream && c.Events[i+1].Parent == e.Seq &&
				(c.Events[i+1].Kind == eventlog.KindReturnOut || c.Events[i+1].Kind == eventlog.KindPanicIn) {
				a := &c.Events[i+1]
				how := "->"
				if a.Kind == eventlog.KindPanicIn {
					how = "-> panics:"
				}
				text = fmt.Sprintf("%soutcall %s%s %s %s", ind, recv(e), callText(e), how, results(a.Values))
				line(w, e, l.InputSeq(c.Orig[i]), text, len(streams) > 1, failSeq, f)
				i++
				if c.Orig[i-1] == failSeq || c.Orig[i] == failSeq {
					mark(w, f)
				}
				continue
			}
			depth[e.Stream]++
			text = fmt.Sprintf("%soutcall %s%s", ind, recv(e), callText(e))
		case eventlog.KindReturnOut:
			depth[e.Stream] = max(d-1, 0)
			text = fmt.Sprintf("%s-> %s", strings.Repeat("  ", max(d-1, 0)), results(e.Values))
		case eventlog.KindPanicIn:
			depth[e.Stream] = max(d-1, 0)
			text = fmt.Sprintf("%s-> panics: %s", strings.Repeat("  ", max(d-1, 0)), results(e.Values))
		case eventlog.KindReadOut:
			text = fmt.Sprintf("%sreads %s = %s", ind, e.Site, results(e.Values))
		case eventlog.KindWriteOut:
			text = fmt.Sprintf("%swrites %s = %s", ind, e.Site, results(e.Values))
		case eventlog.KindWriteIn:
			text = fmt.Sprintf("%sexternal code sets %s%s = %s", ind, recv(e), e.Site, results(e.Values))
		case eventlog.KindGo:
			dec := value.Decoder{Buf: e.Values}
			text = fmt.Sprintf("%sstarts goroutine s%d", ind, dec.Uint())
		case eventlog.KindCheckpoint:
			text = fmt.Sprintf("%scheckpoint: replay restores the observed state the capture recorded here", ind)
		case eventlog.KindNoCheckpoint:
			dec := value.Decoder{Buf: e.Values}
			text = fmt.Sprintf("%sno checkpoint: %s", ind, dec.String())
		default:
			text = fmt.Sprintf("%s%s %s: %s", ind, strings.ToLower(e.Kind.String()), e.Site, results(e.Values))
		}
		line(w, e, l.InputSeq(c.Orig[i]), text, len(streams) > 1, failSeq, f)
		if c.Orig[i] == failSeq {
			mark(w, f)
		}
	}
}

// callbackPrefix starts the site of a callback's CALL_IN (a function value
// of observed code that external code called), as probe.CallbackPrefix:
// the listing does not link the probe runtime for one string.
const callbackPrefix = "callback "

func line(w io.Writer, e *eventlog.Event, orig uint64, text string, showStream bool, failSeq uint64, f Failure) {
	s := ""
	if showStream {
		s = fmt.Sprintf("s%-3d ", e.Stream)
	}
	pos := ""
	if e.Pos != "" && e.Kind != eventlog.KindReturnIn && e.Kind != eventlog.KindReturnOut {
		pos = "  // " + e.Pos
	}
	fmt.Fprintf(w, "%5d %7d  %s%s%s\n", e.Seq, orig, s, text, pos)
}

func mark(w io.Writer, f Failure) {
	if f.Panic {
		fmt.Fprintf(w, "%14s  ^ the recorded panic: replay of this log passes through it while the code still panics here\n", "")
		return
	}
	fmt.Fprintf(w, "%14s  ^ replay diverges here: %s\n", "", f.Reason)
	if f.Actual != "" {
		fmt.Fprintf(w, "%14s    the code did: %s\n", "", f.Actual)
	}
}

func recv(e *eventlog.Event) string {
	if e.RecvType == "" && e.RecvID == 0 {
		return ""
	}
	return fmt.Sprintf("[%s#%d] ", e.RecvType, e.RecvID)
}

func callText(e *eventlog.Event) string {
	if len(e.Values) == 0 {
		return e.Site + "()"
	}
	return e.Site + "(" + results(e.Values) + ")"
}

func results(b []byte) string {
	if len(b) == 0 {
		return "()"
	}
	s, err := value.Render(b)
	if err != nil {
		return s + " <" + err.Error() + ">"
	}
	return s
}

// ListingHeader is the listing's first lines: what was minimized (l, the
// log given to Minimize), and to what.
func ListingHeader(w io.Writer, l *Log, c *Candidate, res *Result, logName string) {
	fmt.Fprintf(w, "# %s minimized: %d of %d incalls, %d of %d events (%d replays, %s; slice %q of %d incalls)\n",
		logName, len(res.Keep), len(l.Units), len(c.Events), len(l.Events), res.Replays, res.Elapsed.Round(1e7), res.Slice, res.Sliced)
	if res.From != 0 {
		fmt.Fprintf(w, "# a segment: it starts at the checkpoint at seq %d of %s, whose state replay restores in place of the %d incalls before it\n",
			res.From, logName, l.unitsBefore(res.From))
	}
	fmt.Fprintf(w, "# failure: %s\n", res.Failure)
	if res.Stopped {
		fmt.Fprintf(w, "# stopped by the time limit: this log fails the same way but may not be minimal\n")
	}
	fmt.Fprintf(w, "# columns: seq in this log, seq in %s, then the event; '=' what an incall returned, '->' the answer replay gives an outcall\n", logName)
}
