package minimize

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Explain writes what each event of events means for a reader, in terms
// of the observed package's API rather than of the log format: which
// function of the package the caller called and with what, what the
// package asked of the outside (its outcalls) and what it was answered,
// what it answered itself, where it panicked, which locks and channel
// receives replay orders. An outcall whose answer follows at once is one
// line with it. Package paths are shortened to their last element. notes
// adds a line after the event of a seq (the failure, for a minimal log).
func Explain(w io.Writer, events []eventlog.Event, notes map[uint64]string) {
	streams := map[uint32]bool{}
	for i := range events {
		streams[events[i].Stream] = true
	}
	depth := map[uint32]int{}
	for i := 0; i < len(events); i++ {
		e := &events[i]
		d := depth[e.Stream]
		seqs := fmt.Sprint(e.Seq)
		var text string
		switch e.Kind {
		case eventlog.KindCallIn:
			depth[e.Stream]++
			if name, ok := strings.CutPrefix(e.Site, callbackPrefix); ok {
				text = fmt.Sprintf("the outside calls back %s(%s), a function of the package it was handed", short(name), args(e.Values))
				break
			}
			who := "the caller calls"
			if d > 0 {
				who = "the outside calls back"
			}
			text = fmt.Sprintf("%s %s(%s)%s", who, short(e.Site), args(e.Values), on(e))
		case eventlog.KindReturnIn:
			d = max(d-1, 0)
			depth[e.Stream] = d
			text = fmt.Sprintf("%s answers %s", short(strings.TrimPrefix(e.Site, callbackPrefix)), answer(e.Values))
		case eventlog.KindPanicOut:
			d = max(d-1, 0)
			depth[e.Stream] = d
			v, pos := panicValue(e.Values)
			text = fmt.Sprintf("%s panics with %s (raised at %s)", short(strings.TrimPrefix(e.Site, callbackPrefix)), v, pos)
		case eventlog.KindCallOut:
			call := fmt.Sprintf("%s(%s)%s", short(e.Site), args(e.Values), on(e))
			if i+1 < len(events) && events[i+1].Stream == e.Stream && events[i+1].Parent == e.Seq {
				a := &events[i+1]
				switch a.Kind {
				case eventlog.KindReturnOut:
					text = fmt.Sprintf("it asks the outside %s and gets %s", call, answer(a.Values))
				case eventlog.KindPanicIn:
					v, _ := panicValue(a.Values)
					text = fmt.Sprintf("it asks the outside %s, which panics with %s", call, v)
				}
				if text != "" {
					seqs = fmt.Sprintf("%d-%d", e.Seq, a.Seq)
					explainLine(w, seqs, e, d, text, len(streams) > 1)
					i++
					for _, s := range []uint64{e.Seq, a.Seq} {
						if n := notes[s]; n != "" {
							explainLine(w, "", e, d, "^ "+n, len(streams) > 1)
						}
					}
					continue
				}
			}
			depth[e.Stream]++
			text = fmt.Sprintf("it calls the outside %s", call)
		case eventlog.KindReturnOut:
			d = max(d-1, 0)
			depth[e.Stream] = d
			text = fmt.Sprintf("the outside %s returns %s", short(e.Site), answer(e.Values))
		case eventlog.KindPanicIn:
			d = max(d-1, 0)
			depth[e.Stream] = d
			v, _ := panicValue(e.Values)
			text = fmt.Sprintf("the outside %s panics with %s", short(e.Site), v)
		case eventlog.KindReadOut:
			text = fmt.Sprintf("it reads the outside variable %s: %s", short(e.Site), results(e.Values))
		case eventlog.KindWriteOut:
			text = fmt.Sprintf("it sets the outside variable %s to %s", short(e.Site), results(e.Values))
		case eventlog.KindWriteIn:
			text = fmt.Sprintf("the outside sets the package's %s%s to %s", short(e.Site), on(e), results(e.Values))
		case eventlog.KindGo:
			dec := value.Decoder{Buf: e.Values}
			text = fmt.Sprintf("it starts a goroutine (stream s%d), whose events follow under its stream", dec.Uint())
		case eventlog.KindCheckpoint:
			text = "checkpoint: the observed packages' variables and live objects as the capture saw them here; replay of this log (a segment) sets them before the calls that follow, in place of the calls that set them up in the run"
		case eventlog.KindNoCheckpoint:
			dec := value.Decoder{Buf: e.Values}
			text = "no checkpoint could be taken here: " + dec.String()
		case eventlog.KindLockTurn:
			text = lockTurn(e)
		case eventlog.KindChanTurn:
			dec := value.Decoder{Buf: e.Values}
			num, n := dec.Uint(), dec.Uint()
			text = fmt.Sprintf("it receives from channel #%d at %s: the channel's receive %d in this log, which replay lets happen in that order", num, e.Site, n)
		default:
			text = fmt.Sprintf("%s %s: %s", strings.ToLower(e.Kind.String()), short(e.Site), results(e.Values))
		}
		explainLine(w, seqs, e, d, text, len(streams) > 1)
		if n := notes[e.Seq]; n != "" {
			explainLine(w, "", e, d, "^ "+n, len(streams) > 1)
		}
	}
}

func explainLine(w io.Writer, seqs string, e *eventlog.Event, depth int, text string, showStream bool) {
	s := ""
	if showStream {
		s = fmt.Sprintf("s%d: ", e.Stream)
	}
	pos := ""
	if seqs != "" && e.Pos != "" && e.Kind != eventlog.KindReturnIn && e.Kind != eventlog.KindReturnOut && e.Kind != eventlog.KindPanicOut && e.Kind != eventlog.KindPanicIn {
		pos = "  (" + e.Pos + ")"
	}
	if showStream && seqs == "" {
		s = strings.Repeat(" ", len(fmt.Sprintf("s%d: ", e.Stream)))
	}
	fmt.Fprintf(w, "%9s  %s%s%s%s\n", seqs, s, strings.Repeat("  ", depth), text, pos)
}

// lockTurn explains a LOCK_TURN: which acquisition of which lock it is, so
// that a reader sees the order replay enforces between goroutines.
func lockTurn(e *eventlog.Event) string {
	d := value.Decoder{Buf: e.Values}
	num, writes, reads, acquired := d.Uint(), d.Uint(), d.Uint(), d.Bool()
	if d.Err != nil {
		return fmt.Sprintf("lock turn at %s: %s", e.Site, results(e.Values))
	}
	switch {
	case !acquired:
		return fmt.Sprintf("it tries %s (lock #%d) and does not get it", e.Site, num)
	case strings.HasSuffix(e.Site, "RLock"):
		return fmt.Sprintf("it read-locks %s (lock #%d): read %d after its write lock %d in this log", e.Site, num, reads, writes)
	}
	return fmt.Sprintf("it locks %s (lock #%d): its write lock %d in this log, which replay grants in that order", e.Site, num, writes)
}

// pathPrefix matches the import path before a package name in a site
// ("example.com/shop/" in "(*example.com/shop/cart.Cart).Add").
var pathPrefix = regexp.MustCompile(`[\w.~-]+(/[\w.~-]+)*/`)

// versionElem matches the major-version element that ends the import path
// of a module of major version 2 or more, before the name that follows it
// ("/v3." in "github.com/Masterminds/semver/v3.NewVersion"): the package's
// name is the element before it.
var versionElem = regexp.MustCompile(`/v(?:[2-9]|[1-9][0-9]+)\.`)

// short spells a site with package names instead of import paths.
func short(site string) string {
	return pathPrefix.ReplaceAllString(versionElem.ReplaceAllString(site, "."), "")
}

func args(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return results(b)
}

func answer(b []byte) string {
	if len(b) == 0 {
		return "nothing (no results)"
	}
	return results(b)
}

// ExplainHeader says what the log is: its events, incalls and streams and
// the observed set, and how to read the lines that follow.
func ExplainHeader(w io.Writer, l *Log, events []eventlog.Event, name string) {
	streams := map[uint32]bool{}
	incalls := 0
	depth := map[uint32]int{}
	for i := range events {
		e := &events[i]
		streams[e.Stream] = true
		switch e.Kind {
		case eventlog.KindCallIn, eventlog.KindCallOut:
			if e.Kind == eventlog.KindCallIn && depth[e.Stream] == 0 {
				incalls++
			}
			depth[e.Stream]++
		case eventlog.KindReturnIn, eventlog.KindPanicOut, eventlog.KindReturnOut, eventlog.KindPanicIn:
			depth[e.Stream] = max(depth[e.Stream]-1, 0)
		}
	}
	fmt.Fprintf(w, "# %s: %d events, %d calls into the observed set (%s) on %d goroutine stream(s)\n",
		name, len(events), incalls, strings.Join(l.Meta.ObservedPackages, ", "), len(streams))
	fmt.Fprintf(w, "# each line: the event's seq, then what it means; \"the caller\" is code outside the observed set, \"the outside\" what the package calls out to, whose answers replay gives from the log\n")
}

// on names an event's receiver object, when it has one.
func on(e *eventlog.Event) string {
	if e.RecvID == 0 {
		return ""
	}
	return fmt.Sprintf(" on %s #%d", short(e.RecvType), e.RecvID)
}
