package probe

import (
	"fmt"
	"strings"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// drive performs the top-level incalls of stream s.
func (p *player) drive(s *Stream) {
	sr := s.replay
	for !p.isDone() && sr.cur < sr.total {
		i, e := p.at(sr, sr.cur)
		if e.Kind == eventlog.KindWriteIn {
			p.waitTurn(i)
			if !p.writeIn(s, e) {
				return
			}
			sr.cur++
			p.release(i)
			continue
		}
		if e.Parent == 0 && (e.Kind == eventlog.KindCallOut || e.Kind == eventlog.KindReadOut) {
			p.skipOrphan(sr)
			continue
		}
		// A callback's CALL_IN may name the CALL_OUT (of another stream)
		// that passed its function value.
		if e.Kind != eventlog.KindCallIn || (e.Parent != 0 && !strings.HasPrefix(e.Site, CallbackPrefix)) {
			reason := "replay can only start a logical goroutine at an incall"
			if e.Kind == eventlog.KindCallOut {
				reason = "outcall from a goroutine that no incall started (a goroutine started by observed code, or an observed function value called by external code): not replayed yet"
			}
			p.diverge(&Divergence{Seq: e.Seq, Stream: e.Stream, Reason: reason, Expected: p.describe(e), Actual: "no incall to perform"})
			return
		}
		p.waitTurn(i)
		if strings.HasPrefix(e.Site, CallbackPrefix) && e.Parent != 0 && p.skippedOutcall(e.Parent) {
			// External code calls back a function value that an outcall
			// replay skipped passed to it (an observed closure that net/http
			// called, whose outcalls replay does not perform): not replayed
			// either.
			p.skipOrphan(sr)
			continue
		}
		if strings.HasPrefix(e.Site, CallbackPrefix) {
			// External code called an observed function value on a
			// goroutine of its own (an http.HandlerFunc).
			before := sr.cur
			p.invokeCallback(s, e)
			if !p.isDone() && sr.cur == before {
				return
			}
			continue
		}
		site := lookupSite(e.Site)
		if site == nil || site.Invoke == nil {
			reason := "recorded incall to a function that this build does not export (removed, renamed or unexported?)"
			if strings.Contains(e.Site, "[") {
				reason = "recorded incall of a generic instantiation that this replay build does not contain: the replay harness instantiates only type arguments it can name (docs/limitations.md)"
			}
			p.diverge(&Divergence{Seq: e.Seq, Stream: e.Stream, Reason: reason,
				Expected: p.describe(e), Actual: "no such exported function", Candidate: p.similarSite(e.Site)})
			return
		}
		s.dec = value.Decoder{Buf: e.Values, Resolver: p}
		s.site = site
		before := sr.cur
		p.invoke(site, s)
		if !p.isDone() && sr.cur == before {
			p.diverge(&Divergence{Seq: e.Seq, Stream: e.Stream, Reason: "the incall made no boundary event (the function no longer records its call?)",
				Expected: p.describe(e), Actual: "nothing"})
			return
		}
	}
}

// waitChildren waits, after the drivers are done, for the goroutines that
// observed code started, until they end or the log is fully replayed. One
// blocked for good (a background loop) is left behind once nothing has been
// replayed for a second.
func (p *player) waitChildren() {
	p.waitQuiet(func() bool { return p.live > 0 && p.next < p.total })
}

// waitOthers is called by a stream that has no logged event left but makes
// one. Another goroutine's event may end the log first — a panic in a
// goroutine started by observed code killed the capture's process while this
// one ran on — so it waits until the rest of the log is replayed (or nothing
// moves for a second). It reports whether the stream still diverges.
func (p *player) waitOthers() bool {
	p.mu.Lock()
	waited := p.next < p.total
	p.mu.Unlock()
	if waited {
		p.waitQuiet(func() bool { return p.next < p.total })
	}
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	if done {
		p.waitTurn(-1) // unwinds: the replay has ended
	}
	return true
}

// waitQuiet waits while busy() holds (called with p.mu held), until
// nothing has been replayed for a second or the replay has ended.
func (p *player) waitQuiet(busy func() bool) {
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				p.cond.Broadcast()
			}
		}
	}()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.quiet++
	defer func() { p.quiet-- }()
	last, since := p.replayed, time.Now()
	for !p.done && busy() {
		if p.replayed != last {
			last, since = p.replayed, time.Now()
		} else if time.Since(since) > time.Second {
			return
		}
		p.cond.Wait()
	}
}

// skipOrphan skips an outcall (and its outcome) or read that no incall
// encloses: code of the observed set entered without an exported function —
// an unexported function called by an in-package test, or an observed
// closure called by external code. Replay cannot drive such code; the report
// says how many events it skipped.
func (p *player) skipOrphan(sr *streamReplay) {
	i, e := p.at(sr, sr.cur)
	p.waitTurn(i)
	sr.cur++
	p.skip(e)
	p.release(i)
	var ends func(f *eventlog.Event) bool
	switch e.Kind {
	case eventlog.KindCallOut:
		ends = func(f *eventlog.Event) bool {
			return (f.Kind == eventlog.KindReturnOut || f.Kind == eventlog.KindPanicIn) && f.Parent == e.Seq
		}
	case eventlog.KindCallIn: // a callback of a value passed by a skipped outcall
		ends = func(f *eventlog.Event) bool {
			return (f.Kind == eventlog.KindReturnIn || f.Kind == eventlog.KindPanicOut) && f.Parent == e.Seq
		}
	default:
		return
	}
	for sr.cur < sr.total {
		j, f := p.at(sr, sr.cur)
		p.waitTurn(j)
		sr.cur++
		p.skip(f)
		p.release(j)
		if ends(f) {
			return
		}
	}
}

// skip counts event e as not replayed; a skipped CALL_OUT is remembered,
// since external code may call back, on a goroutine of its own, a function
// value that it passed (a handler observed code returned calls bolt's
// Batch(fn), and bolt calls fn on its own goroutine).
func (p *player) skip(e *eventlog.Event) {
	p.mu.Lock()
	p.orphans++
	if e.Kind == eventlog.KindCallOut {
		if p.skipped == nil {
			p.skipped = map[uint64]bool{}
		}
		p.skipped[e.Seq] = true
	}
	p.mu.Unlock()
	p.numberedBy(e)
}

// skippedOutcall reports whether the CALL_OUT seq was skipped (its turn
// has come and gone when this is asked: it precedes the asking event).
func (p *player) skippedOutcall(seq uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.skipped[seq]
}

// numberedBy counts the objects that e, an event replay skips, numbered in
// the capture: replay numbers the objects that cross the boundary after it
// from there on, as the capture did. (The init outcalls of an in-package
// test file's variables are in the capture's log but not in the replay
// harness, which links no test files: pflag's flag_test.go.)
func (p *player) numberedBy(e *eventlog.Event) {
	top, _ := value.MaxObjectID(e.Values)
	top = max(top, e.RecvID)
	p.objMu.Lock()
	if top > p.maxID && top < varIDs {
		p.maxID = top
	}
	p.objMu.Unlock()
}

// invoke calls site's invoker; a panic that the log expected (PANIC_OUT)
// ends here, as it did in the external caller.
func (p *player) invoke(site *Site, s *Stream) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(abortReplay); ok {
				return
			}
			if s.replay != nil && s.replay.lastPanicMatched {
				return
			}
			p.diverge(&Divergence{Stream: s.id, Reason: "unexpected panic while performing an incall", Actual: fmt.Sprint(r), Pos: site.Pos})
		}
	}()
	s.replay.lastPanicMatched = false
	s.inside = false
	s.frames = s.frames[:0]
	site.Invoke(s)
}

// invokeCallback performs a top-level callback; like invoke, a panic the
// log expected ends here.
func (p *player) invokeCallback(s *Stream, e *eventlog.Event) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(abortReplay); ok {
				return
			}
			if s.replay.lastPanicMatched {
				return
			}
			p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "unexpected panic while performing a callback", Actual: fmt.Sprint(r), Pos: e.Pos})
		}
	}()
	s.replay.lastPanicMatched = false
	s.inside = false
	s.frames = s.frames[:0]
	p.performCallback(s, e)
}
