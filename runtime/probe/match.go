package probe

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// peek returns the next event of s's stream, waiting for its turn.
func (p *player) peek(s *Stream, actual func() string) (int, *eventlog.Event) {
	sr := s.replay
	if sr == nil {
		p.diverge(&Divergence{Stream: s.id, Reason: "boundary event on a goroutine that replay did not start (goroutines started by observed code are not replayed yet)",
			Actual: actual(), Expected: "nothing", Pos: s.site.Pos})
		panic(abortReplay{})
	}
	if sr.cur >= sr.total && p.cut {
		p.parkAtEnd(s)
	}
	if sr.cur >= sr.total && p.waitOthers() {
		p.diverge(&Divergence{Stream: s.id, Reason: "the code made a boundary event after the log's last event of this goroutine",
			Expected: "end of the stream", Actual: actual(), Pos: s.site.Pos, Candidate: p.candidate(s, sr)})
		panic(abortReplay{})
	}
	i, e := p.at(sr, sr.cur)
	p.waitTurn(i)
	return i, e
}

func (p *player) consume(s *Stream) {
	i := p.idx(s.replay, s.replay.cur)
	s.replay.cur++
	p.release(i)
}

func (p *player) describe(e *eventlog.Event) string {
	vals, err := value.Render(e.Values)
	if err != nil {
		vals += " <" + err.Error() + ">"
	}
	recv := ""
	if e.RecvType != "" {
		recv = fmt.Sprintf(" on %s#%d", e.RecvType, e.RecvID)
	}
	return fmt.Sprintf("%s %s(%s)%s at %s", e.Kind, e.Site, vals, recv, e.Pos)
}

func describeActual(kind eventlog.Kind, site *Site, vals []byte) string {
	r, err := value.Render(vals)
	if err != nil {
		r += " <" + err.Error() + ">"
	}
	name := ""
	if site != nil {
		name = site.Name
	}
	return fmt.Sprintf("%s %s(%s)", kind, name, r)
}

// candidate finds the closest event in the log for what the code did: the
// nearest later event of the same site in the stream, else anywhere.
func (p *player) candidate(s *Stream, sr *streamReplay) string {
	if s.site == nil {
		return ""
	}
	// The stream's events read so far, then those the log holds past
	// them, then any event: read from the log anew rather than held.
	p.load.mu.Lock()
	rest := append(sr.q[max(sr.cur-sr.off, 0):len(sr.q):len(sr.q)], sr.pending...)
	hi := p.load.hi
	p.load.mu.Unlock()
	for _, q := range rest {
		if e := q.e; e.Site == s.site.Name {
			return fmt.Sprintf("seq %d: %s", e.Seq, p.describe(e))
		}
	}
	found := ""
	look := func(i int, e *eventlog.Event) bool {
		if e.Site == s.site.Name && (hi < 0 || i >= hi && e.Stream == sr.id) {
			found = fmt.Sprintf("seq %d: %s", e.Seq, p.describe(e))
		}
		return found == ""
	}
	if p.scanLog(look); found == "" {
		hi = -1
		p.scanLog(look)
	}
	return found
}

func (p *player) similarSite(name string) string {
	short := name[strings.LastIndexAny(name, ".)")+1:]
	sitesMu.RLock()
	defer sitesMu.RUnlock()
	var names []string
	for n := range sites {
		if strings.HasSuffix(n, "."+short) || strings.EqualFold(n, name) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) > 0 {
		return "exported now: " + strings.Join(names, ", ")
	}
	return ""
}

// playerCall matches a CALL_IN or CALL_OUT made by the code.
func playerCall(s *Stream, kind eventlog.Kind) uint64 {
	p := play
	actual := func() string { return describeActual(kind, s.site, s.enc.Buf) }
	_, e := p.peek(s, actual)
	if len(s.codePCs) > 0 {
		p.bindCodePCs(s, e)
	}
	if kind == eventlog.KindCallOut && p.level != CheckStrict && (e.Kind != kind || e.Site != s.site.Name || !p.sameLocated(e.Values, s.enc.Buf)) {
		if r := p.resync(s); r != nil {
			e = r
		}
	}
	if e.Kind != kind || e.Site != s.site.Name {
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the code made a different boundary call than the log holds",
			Expected: p.describe(e), Actual: actual(), Pos: s.site.Pos, Candidate: p.candidate(s, s.replay)})
		panic(abortReplay{})
	}
	if !p.sameValues(s, e.Values) {
		d := &Divergence{Seq: e.Seq, Stream: s.id, Reason: "different arguments", Expected: p.describe(e), Actual: actual(), Pos: s.site.Pos}
		lenient := (kind == eventlog.KindCallOut && p.level != CheckStrict) || (kind == eventlog.KindCallIn && p.level == CheckCrash)
		if lenient {
			p.note(d)
		} else {
			p.diverge(d)
			panic(abortReplay{})
		}
	}
	if kind == eventlog.KindCallOut {
		notePassed(s, e.Seq)
	}
	p.consume(s)
	return e.Seq
}

// resync looks, when an outcall does not match the log's next event, for a
// later outcall of the same enclosing call with the same callee and
// arguments that has not been replayed (JINSI's resynchronisation: map
// iteration order or a select choice inside observed code changed the order
// of outcalls). If there is one, it and its outcome (with any callbacks) are
// moved to the front of the stream, a note is added, and it is returned,
// its turn taken.
func (p *player) resync(s *Stream) *eventlog.Event {
	sr := s.replay
	_, first := p.at(sr, sr.cur)
	parent := first.Parent
	for k := sr.cur + 1; k < sr.total; k++ {
		_, e := p.at(sr, k)
		if e.Parent != parent {
			continue // inside an earlier outcall
		}
		if e.Kind == eventlog.KindReturnIn || e.Kind == eventlog.KindPanicOut || e.Kind == eventlog.KindReturnOut || e.Kind == eventlog.KindPanicIn {
			return nil // the enclosing call ends
		}
		if e.Kind != eventlog.KindCallOut || e.Site != s.site.Name || !p.sameLocated(e.Values, s.enc.Buf) {
			continue
		}
		m := k + 1
		for ; m < sr.total; m++ {
			_, f := p.at(sr, m)
			if (f.Kind == eventlog.KindReturnOut || f.Kind == eventlog.KindPanicIn) && f.Parent == e.Seq {
				break
			}
		}
		if m == sr.total {
			m-- // the log ends inside it
		}
		// Positions cur to m are read (at): reorder them in the queue.
		a, kk, mm := sr.cur-sr.off, k-sr.off, m-sr.off
		q := make([]qent, 0, len(sr.q))
		q = append(q, sr.q[:a]...)
		q = append(q, sr.q[kk:mm+1]...)
		q = append(q, sr.q[a:kk]...)
		q = append(q, sr.q[mm+1:]...)
		sr.q = q
		p.mu.Lock()
		p.resynced = true
		p.report.Notes = append(p.report.Notes, fmt.Sprintf("outcall replayed out of the recorded order (check %s): %s matched seq %d instead of seq %d (%s)",
			p.level, describeActual(eventlog.KindCallOut, s.site, s.enc.Buf), e.Seq, first.Seq, p.describe(first)))
		p.mu.Unlock()
		p.waitTurn(p.idx(sr, sr.cur))
		return e
	}
	return nil
}

// ownGap reports whether every event not yet replayed before index i
// belongs to i's stream: events that stream postponed by resynchronising,
// which must not hold its later events back (called with p.mu held).
func (p *player) ownGap(i int) bool {
	if i < p.next {
		return false
	}
	st := p.ev(i).Stream
	for j := p.next; j < i; j++ {
		if !p.consumedLocked(j) && p.ev(j).Stream != st {
			return false
		}
	}
	return true
}

// playerReturn matches the RETURN_IN of an incall.
func playerReturn(s *Stream, fr frame) {
	p := play
	s.site = fr.site
	actual := func() string { return describeActual(eventlog.KindReturnIn, fr.site, s.enc.Buf) }
	if p.unreturnedAtEnd(s) {
		p.parkUnreturned(s, fr)
	}
	_, e := p.peek(s, actual)
	switch {
	case e.Kind == eventlog.KindReturnIn && e.Parent == fr.seq:
		if !p.sameValues(s, e.Values) {
			d := &Divergence{Seq: e.Seq, Stream: s.id, Reason: "different results", Expected: p.describe(e), Actual: actual(), Pos: fr.site.Pos}
			if p.level == CheckCrash {
				p.note(d)
			} else {
				p.diverge(d)
				panic(abortReplay{})
			}
		}
	case e.Kind == eventlog.KindPanicOut && e.Parent == fr.seq:
		d := &Divergence{Seq: e.Seq, Stream: s.id, Reason: "the incall returned where the capture panicked", Expected: p.describe(e), Actual: actual(), Pos: fr.site.Pos}
		if p.level == CheckCrash {
			p.note(d)
		} else {
			p.diverge(d)
			panic(abortReplay{})
		}
	default:
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the incall returned before the log's next event", Expected: p.describe(e), Actual: actual(), Pos: fr.site.Pos,
			Candidate: p.candidate(s, s.replay)})
		panic(abortReplay{})
	}
	p.consume(s)
}

// playerPanic matches a panic leaving an incall (PANIC_OUT).
func playerPanic(s *Stream, fr frame, kind eventlog.Kind, r any) {
	p := play
	if _, ok := r.(abortReplay); ok {
		panic(r)
	}
	actual := func() string { return describeActual(kind, fr.site, s.enc.Buf) }
	_, e := p.peek(s, actual)
	vals, _ := value.Split(s.enc.Buf)
	pos := ""
	if len(vals) == 2 {
		pos, _, _ = value.RenderOne(vals[1], 0)
	}
	if e.Kind != kind || e.Parent != fr.seq {
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the code panicked where the capture did not", Expected: p.describe(e), Actual: actual(), Pos: strings.Trim(pos, `"`)})
		panic(abortReplay{})
	}
	want, _ := value.Split(e.Values)
	if len(want) == 0 || len(vals) == 0 || !p.sameLocated(want[0], vals[0]) {
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "different panic value", Expected: p.describe(e), Actual: actual(), Pos: strings.Trim(pos, `"`)})
		panic(abortReplay{})
	}
	s.replay.lastPanicMatched = true
	p.consume(s)
}

// playerAnswer reads the outcome of outcall frame f from the log.
func playerAnswer(s *Stream, f int) {
	p := play
	fr := s.frames[f]
	s.site = fr.site
	if sr := s.replay; sr != nil && sr.cur >= sr.total && !p.cut && (p.children[s.id] || s.id != 0 && sr.driverDone != nil) {
		p.parkUnanswered(s, fr)
	}
	_, e := p.peek(s, func() string { return "waiting for the result of " + fr.site.Name })
	// Callbacks the external callee made, performed in order before the
	// outcall is answered, and the writes of watched fields it made before
	// each (writefields.go).
	for (e.Kind == eventlog.KindCallIn || e.Kind == eventlog.KindWriteIn) && e.Parent == fr.seq {
		if e.Kind == eventlog.KindWriteIn {
			if !p.writeIn(s, e) {
				panic(abortReplay{})
			}
			p.consume(s)
		} else {
			p.performNested(s, e)
		}
		s.site = fr.site
		_, e = p.peek(s, func() string { return "waiting for the result of " + fr.site.Name })
	}
	switch {
	case e.Kind == eventlog.KindReturnOut && e.Parent == fr.seq:
		s.dec = value.Decoder{Buf: e.Values, Resolver: p}
		p.consume(s)
	case e.Kind == eventlog.KindPanicIn && e.Parent == fr.seq:
		d := value.Decoder{Buf: e.Values, Resolver: p}
		v := value.Decode[any](&d)
		if vals, _ := value.Split(e.Values); len(vals) == 2 {
			pos, _, _ := value.RenderOne(vals[1], 0)
			s.chain.pos = strings.Trim(pos, `"`) // the site the capture recorded (panicSite)
		}
		p.consume(s)
		s.close(f)
		if v == nil {
			v = errors.New("replayed panic with an undecodable value")
		}
		panic(v)
	default:
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the log does not answer this outcall", Expected: p.describe(e), Actual: "outcall " + fr.site.Name, Pos: fr.site.Pos})
		panic(abortReplay{})
	}
}

// playerDone checks that the recorded results fitted the call's results.
func playerDone(s *Stream, fr frame) {
	if s.dec.Err != nil || s.dec.Off != len(s.dec.Buf) {
		endAtUnbuiltType(s, fr)
		p := play
		why := "results left over"
		if s.dec.Err != nil {
			why = s.dec.Err.Error()
		}
		reason := "the recorded results do not fit the results of " + fr.site.Name + " (signature changed, or a type it names no longer registered?): "
		if errors.Is(s.dec.Err, value.ErrFirstFieldFirst) {
			reason = "the recorded results of " + fr.site.Name + " name an object replay cannot rebuild (a known limitation, not a code change): "
		}
		d := &Divergence{Stream: s.id, Reason: reason + why,
			Pos: fr.site.Pos, Actual: "outcall " + fr.site.Name}
		if sr := s.replay; sr != nil && sr.cur > 0 && sr.cur <= sr.total {
			// The event whose values were being read: the last one consumed.
			_, e := p.at(sr, sr.cur-1)
			d.Seq, d.Expected = e.Seq, p.describe(e)
		}
		p.diverge(d)
		panic(abortReplay{})
	}
}

func argsMismatch(s *Stream) {
	endAtUnbuiltArg(s)
	p := play
	why := "arguments left over"
	if s.dec.Err != nil {
		why = s.dec.Err.Error()
	}
	reason := "the recorded arguments do not fit this build's function (signature changed?): "
	if errors.Is(s.dec.Err, value.ErrFirstFieldFirst) {
		reason = "the recorded arguments name an object replay cannot rebuild (a known limitation, not a code change): "
	}
	d := &Divergence{Stream: s.id, Reason: reason + why}
	if s.replay != nil && s.replay.cur < s.replay.total {
		_, e := p.at(s.replay, s.replay.cur)
		d.Seq, d.Expected = e.Seq, p.describe(e)
	}
	if s.site != nil {
		d.Actual, d.Pos = "incall "+s.site.Name, s.site.Pos
	}
	p.diverge(d)
}

// playerRead matches a READ_OUT and sets the recorded value to decode.
func playerRead(s *Stream) {
	p := play
	actual := func() string { return describeActual(eventlog.KindReadOut, s.site, nil) }
	_, e := p.peek(s, actual)
	if e.Kind != eventlog.KindReadOut || e.Site != s.site.Name {
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the code read a different variable than the log holds",
			Expected: p.describe(e), Actual: actual(), Pos: s.site.Pos, Candidate: p.candidate(s, s.replay)})
		panic(abortReplay{})
	}
	s.dec = value.Decoder{Buf: e.Values, Resolver: p}
	p.consume(s)
}
