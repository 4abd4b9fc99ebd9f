package probe

import "github.com/rules-capture/rules_capture/runtime/eventlog"

// Channels at the boundary (docs/design/boundary-model.md, "Channels and select").
//
// A channel that crossed the boundary — one that came in (an incall's
// argument, an outcall's result, a variable read) or went out (an outcall's
// argument) — may have external code at its other end: in replay that code
// does not run, and the channel is a placeholder. Receives, sends, closes
// and selects of observed code on such a channel are outcalls: the value
// and ok of a receive, and the case a select took, are recorded and
// answered from the log. Channels that never crossed (made and used inside
// the observed set) are operated natively. A channel has crossed once it
// got an object ID (crossed.go), which is the same in capture and replay
// because the same events number the same objects; an operation decides at
// its place in the log's order of events (chanOrder in crossed.go), so a
// channel that another goroutine passes across the boundary meanwhile
// counts alike in capture and replay (TestChannelCrossesAtItsEvent).

// Chan starts the channel operation at site on ch (a receive, send, close
// or range step): nil, and the operation is native, unless capture or
// replay is on, the goroutine runs observed code and ch crossed the
// boundary. The caller records ch with Recv.
func Chan(site *Site, ch any) *Stream {
	if !enabled.Load() || smpIdle.Load() { // outside a sampled window nothing is recorded
		return nil
	}
	s := chanStream(site)
	if s == nil {
		return nil
	}
	// In capture, a channel counts as crossed once the event that numbered
	// it is in the log (crossed.go), so this CALL_OUT comes after it.
	if !crossed(ch) {
		return nil
	}
	s.begin(site, eventlog.KindCallOut)
	return s
}

// chanStream is what Chan and Select check, with capture or replay on,
// before they look at the channels: the goroutine's stream, once its turn
// in replay came, or nil when no channel crossed the boundary yet or the
// goroutine is not running observed code. (They test enabled themselves:
// with capture off, an operation costs that one load and no call.)
func chanStream(site *Site) *Stream {
	if crossings.chans.Load() == 0 {
		return nil // no channel crossed the boundary yet
	}
	s := current()
	if !s.inside {
		return nil
	}
	if replaying {
		s.waitChanTurn(site)
	}
	return s
}

// waitChanTurn puts replay's decision about to be made on which channels
// crossed in the log's order of events (crossed.go): if the stream's next
// event is a CALL_OUT of site, it waits for its turn, so that every event
// before it, and the channels they numbered, came first.
func (s *Stream) waitChanTurn(site *Site) {
	sr := s.replay
	if sr == nil || sr.cur >= sr.total {
		return
	}
	p := play
	i, e := p.at(sr, sr.cur)
	if e.Kind == eventlog.KindCallOut && e.Site == site.Name {
		p.waitTurn(i)
	}
}

// Select starts the select statement at site whose cases operate on chans
// (nil for a default case): nil, and the select is native, unless capture
// or replay is on, the goroutine runs observed code and at least one of
// the channels crossed the boundary. Crossed(i) tells which did.
func Select(site *Site, chans ...any) *Stream {
	if !enabled.Load() || smpIdle.Load() {
		return nil
	}
	s := chanStream(site)
	if s == nil {
		return nil
	}
	mask := crossedMask(chans)
	if mask == 0 {
		return nil
	}
	if !replaying {
		// Some case crossed: the select is an event. Which channels it
		// names, and its place in the log, are decided together, so that
		// a channel another goroutine's event numbers meanwhile is named
		// iff that event comes first in the log.
		s.holdChanOrder()
		mask = crossedMask(chans)
	}
	s.begin(site, eventlog.KindCallOut)
	s.chans = mask
	return s
}

// crossedMask returns the cases of a select (up to 64) whose channels
// crossed the boundary.
func crossedMask(chans []any) uint64 {
	var mask uint64
	for i, ch := range chans {
		if i < 64 && crossed(ch) {
			mask |= 1 << i
		}
	}
	return mask
}

// Crossed reports whether the channel of case i of the select being
// recorded or replayed crossed the boundary: its outcome is recorded, and
// in replay answered from the log; the other cases are performed natively.
func (s *Stream) Crossed(i int) bool { return i >= 0 && i < 64 && s.chans&(1<<i) != 0 }

// Chosen returns, in replay, the case that the select of outcall frame f
// took in the capture (-1: default), read from the stream's next event
// without waiting for its turn: a case on a channel of the observed set
// must be performed before the turn comes, since the goroutine at its
// other end may have events of its own to replay first. It returns -2 if
// the next event is not the select's outcome (replay diverges at Answer).
func (s *Stream) Chosen(f int) int {
	sr := s.replay
	if sr == nil || sr.cur >= sr.total || f >= len(s.frames) {
		return -2
	}
	p := play
	_, e := p.at(sr, sr.cur)
	if e.Kind != eventlog.KindReturnOut || e.Parent != s.frames[f].seq {
		return -2
	}
	d := s.dec
	d.Buf, d.Off, d.Err = e.Values, 0, nil
	i := int(d.Int())
	if d.Err != nil {
		return -2
	}
	return i
}

// Returns reports, in replay, whether the outcall of frame f returned in
// the capture: the stream's next event is its RETURN_OUT (read without
// waiting for its turn). Replay closes a crossed channel when the capture's
// close returned, at the close's place in the order (after its CALL_OUT,
// before its RETURN_OUT), as the capture did: a receive of observed code
// that started before the channel crossed is native, and may be the next
// event's reason.
func (s *Stream) Returns(f int) bool {
	sr := s.replay
	if sr == nil || sr.cur >= sr.total || f >= len(s.frames) {
		return false
	}
	_, e := play.at(sr, sr.cur)
	return e.Kind == eventlog.KindReturnOut && e.Parent == s.frames[f].seq
}
