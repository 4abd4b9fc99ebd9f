package probe

import (
	"runtime"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Channel turns (corpus workerpool; docs/divergence.md, "Order and
// concurrency").
//
// A channel made and used inside the observed set is operated natively:
// nothing at the boundary says which goroutine receives which value. When
// several goroutines of the observed set receive from one such channel (a
// worker pool's `for j := range jobs`), that is an interleaving inside the
// observed set, and a replay could hand the jobs to other workers. So the
// receives that the transform marks as turn sites (in the body of a
// goroutine that observed code starts, from a channel that the body did not
// make: a worker's receive) are numbered per channel:
//
//   - capture: the receive runs under the channel's lock, and its count on
//     the channel is recorded as a CHAN_TURN event (Values: the channel's
//     number, the count) before the lock is let go, so the counts follow
//     the order in which the channel delivered its values (receivers
//     queue on the lock as they would on the channel, first come first
//     served);
//   - replay: the receive waits until the channel's earlier receives (by
//     count) have been made, then receives natively and releases its
//     event in the global order. Values sent in the same order then reach
//     the same receivers. The wait is on the channel's count only, not the
//     global order: the sender's later events may precede the CHAN_TURN in
//     the log, and they can come only after this receive takes the value.

// chanTurns is the capture's state of one channel received from at turn
// sites.
type chanTurns struct {
	mu sync.Mutex // held across a receive and its event
	id uint64     // the channel's number in the log (0: none yet)
	n  uint64     // receives so far
}

// turnTable maps channels (by address, with a weak pointer that tells a
// live channel from a collected one whose address was reused) to their
// state; an entry goes with its channel.
var turnChans struct {
	mu   sync.Mutex
	m    map[uintptr]turnEntry
	next atomic.Uint64
}

type turnEntry struct {
	wp weak.Pointer[byte]
	st *chanTurns
}

func turnsOf(ch any) *chanTurns {
	p := ptrOf(ch)
	t := &turnChans
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.m[uintptr(p)]; ok && weakIs(e.wp, p) {
		return e.st
	}
	if t.m == nil {
		t.m = map[uintptr]turnEntry{}
	}
	e := turnEntry{wp: weak.Make((*byte)(p)), st: &chanTurns{}}
	t.m[uintptr(p)] = e
	runtime.AddCleanup((*byte)(p), forgetTurns, turnCell{uintptr(p), e.st})
	return e.st
}

// turnCell is what a channel's cleanup needs to remove its entry.
type turnCell struct {
	addr uintptr
	st   *chanTurns
}

func forgetTurns(c turnCell) {
	t := &turnChans
	t.mu.Lock()
	if e, ok := t.m[c.addr]; ok && e.st == c.st {
		delete(t.m, c.addr)
	}
	t.mu.Unlock()
}

// Turn starts a receive from ch at site, a turn site: nil, and the
// receive is native, unless capture or replay is on and the goroutine runs
// observed code. The caller receives natively and then calls Received.
// Channels that crossed the boundary do not come here (Chan takes them).
func Turn(site *Site, ch any) *Stream {
	if !enabled.Load() || ch == nil || ptrOf(ch) == nil {
		return nil
	}
	s := current()
	if !s.inside {
		return nil
	}
	if replaying {
		return playerTurn(s, site)
	}
	st := turnsOf(ch)
	st.mu.Lock()
	s.begin(site, eventlog.KindChanTurn)
	s.turn = st
	return s
}

// Received ends the receive that Turn started: it records its CHAN_TURN
// event (capture) or releases it (replay).
func (s *Stream) Received() {
	if s == nil {
		return
	}
	if replaying {
		playerReceived(s)
		return
	}
	st := s.turn
	s.turn = nil
	st.n++
	if st.id == 0 {
		st.id = turnChans.next.Add(1)
	}
	s.enc.Buf = value.AppendUint(s.enc.Buf[:0], st.id)
	s.enc.Buf = value.AppendUint(s.enc.Buf, st.n)
	s.emit(eventlog.KindChanTurn, s.parent())
	s.enc.Buf = s.enc.Buf[:0]
	st.mu.Unlock()
}

// turnEvent begins s's event of kind (a turn) at site and returns the
// stream's next event in the log, its index and a decoder of its values,
// and how to describe what the code did; past the stream's last event it
// diverges.
func (p *player) turnEvent(s *Stream, site *Site, kind eventlog.Kind) (int, *eventlog.Event, value.Decoder, func() string) {
	sr := s.replay
	s.begin(site, kind)
	actual := func() string { return describeActual(kind, site, nil) }
	if sr.cur >= sr.total {
		p.peek(s, actual) // diverges: past the stream's last event
	}
	i, e := p.at(sr, sr.cur)
	return i, e, value.Decoder{Buf: e.Values}, actual
}

// turnMismatch reports, at its turn as any other divergence, that s's turn
// at site does not match event i of the log, and aborts the goroutine.
func (p *player) turnMismatch(s *Stream, i int, site *Site, actual func() string, reason string) {
	p.waitTurn(i)
	e := p.ev(i)
	p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: reason,
		Expected: p.describe(e), Actual: actual(), Pos: site.Pos, Candidate: p.candidate(s, s.replay)})
	panic(abortReplay{})
}

// turnReached ends the wait of s's turn, event i, called with p.mu
// released: if the replay ended meanwhile (done) the goroutine waits for
// good; if the counts went past the turn's (extra: the code made the
// operation more often than in the capture) that is reported as the
// divergence reason, at its turn.
func (p *player) turnReached(s *Stream, i int, site *Site, actual func() string, done, extra bool, reason string) {
	if done {
		p.waitTurn(i) // does not return
	}
	if extra {
		p.waitTurn(i)
		e := p.ev(i)
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: reason,
			Expected: p.describe(e), Actual: actual(), Pos: site.Pos})
		panic(abortReplay{})
	}
}

// playerTurn waits, in replay, until the receives that the log counts
// before the stream's next event (a CHAN_TURN) on its channel have been
// made.
func playerTurn(s *Stream, site *Site) *Stream {
	p := play
	sr := s.replay
	if sr == nil || !p.hasTurns {
		// A goroutine replay did not start, or a log written before
		// channel turns (no CHAN_TURN events): native, as then.
		return nil
	}
	i, e, d, actual := p.turnEvent(s, site, eventlog.KindChanTurn)
	num, count := d.Uint(), d.Uint()
	if e.Kind != eventlog.KindChanTurn || e.Site != site.Name || d.Err != nil || count == 0 {
		p.turnMismatch(s, i, site, actual, "the code received from a channel that goroutines of the observed set share where the log holds another event")
	}
	p.mu.Lock()
	if p.chanCount == nil {
		p.chanCount = map[uint64]uint64{}
	}
	for p.chanCount[num] < count-1 && !p.done {
		p.cond.Wait()
	}
	extra := p.chanCount[num] > count-1
	done := p.done
	p.mu.Unlock()
	p.turnReached(s, i, site, actual, done, extra, "the code received from a channel that goroutines of the observed set share more often than in the capture")
	s.turnNum = num
	return s
}

// playerReceived counts the receive on its channel, then releases its
// CHAN_TURN event at its turn.
func playerReceived(s *Stream) {
	p := play
	p.mu.Lock()
	p.chanCount[s.turnNum]++
	p.mu.Unlock()
	p.cond.Broadcast()
	i := p.idx(s.replay, s.replay.cur)
	p.waitTurn(i)
	p.consume(s)
}
