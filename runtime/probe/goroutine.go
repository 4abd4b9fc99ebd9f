package probe

import (
	"fmt"
	"os"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Goroutines started by observed code. The generated helper of a go
// statement calls Go in the parent goroutine, which records a GO event in
// the parent's stream (Values: the child's stream ID; Parent: the enclosing
// call) and returns the child's stream; the new goroutine binds it (Start)
// and ends with End, which records a panic that is about to kill the
// process (PANIC_OUT in the child's stream, flushed) before it does.
// Replay matches the GO event and gives the new goroutine the recorded
// child stream, so its events are matched there.

// Go records that observed code starts a goroutine at site and returns the
// new goroutine's stream (nil when capture is off).
func Go(site *Site) *Stream {
	if !enabled.Load() {
		return nil
	}
	s := current()
	child := &Stream{id: nextStream.Add(1), inside: true}
	s.begin(site, eventlog.KindGo)
	if replaying {
		playerGo(s, child)
	} else {
		if ckptOn {
			liveGo.Add(1)
		}
		s.Uint(uint64(child.id))
		s.emit(eventlog.KindGo, s.parent())
	}
	s.enc.Buf = s.enc.Buf[:0]
	child.site = site
	return child
}

// GoWith starts fn through start, a standard-library call that runs its
// function on a goroutine of its own (the method value wg.Go of a
// sync.WaitGroup), as a go statement of observed code at site: a GO event
// in the caller's stream, fn on the child stream. start keeps its own
// semantics (WaitGroup.Go's Add and Done).
func GoWith(site *Site, start func(func()), fn func()) {
	c := Go(site)
	if c == nil {
		start(fn)
		return
	}
	start(func() {
		defer c.End()
		c.Start()
		fn()
	})
}

// Start binds the calling goroutine, just started by observed code, to
// stream c.
func (c *Stream) Start() {
	if c != nil {
		bind(getg(), c)
	}
}

// End, deferred by a goroutine started by observed code, records a panic
// ending it — the process is about to die of it — and lets it go on. It
// then unbinds the goroutine: the runtime reuses goroutine structures, and
// a later goroutine of external code must not inherit this stream.
func (c *Stream) End() {
	if c == nil {
		return
	}
	site := c.site
	if ckptOn && !replaying {
		liveGo.Add(-1)
	}
	r := recover()
	defer bind(getg(), nil)
	if r == nil {
		if replaying {
			playerGoEnd(c)
		}
		return
	}
	if _, ok := r.(abortReplay); ok {
		return
	}
	c.frames = c.frames[:0]
	c.enc.Objects = objectTable()
	c.enc.Buf = c.enc.Buf[:0]
	encodePanic(&c.enc, r)
	c.enc.Buf = value.AppendString(c.enc.Buf, c.panicSite())
	c.site = site
	if replaying {
		playerGoPanic(c, r)
		return
	}
	c.emit(eventlog.KindPanicOut, 0)
	flush()
	flightPanic(r) // flight.go: the ring is dumped before the process dies
	panic(r)
}

// playerGo matches the GO event of the parent stream s and gives child the
// recorded child stream.
func playerGo(s *Stream, child *Stream) {
	p := play
	actual := func() string { return describeActual(eventlog.KindGo, s.site, nil) }
	_, e := p.peek(s, actual)
	if e.Kind != eventlog.KindGo || e.Site != s.site.Name {
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the code started a goroutine where the log holds another event",
			Expected: p.describe(e), Actual: actual(), Pos: s.site.Pos, Candidate: p.candidate(s, s.replay)})
		panic(abortReplay{})
	}
	d := value.Decoder{Buf: e.Values}
	id := uint32(d.Uint())
	p.consume(s)
	p.mu.Lock()
	child.id = id
	child.replay = p.streams[id]
	if child.replay == nil {
		child.replay = &streamReplay{id: id} // the goroutine made no event
	}
	p.live++
	p.mu.Unlock()
}

// playerGoEnd notes that a goroutine started by observed code returned.
func playerGoEnd(c *Stream) {
	p := play
	p.mu.Lock()
	p.live--
	p.mu.Unlock()
	p.cond.Broadcast()
}

// playerGoPanic matches the panic that ended a goroutine started by
// observed code. The capture's process died of it, so the log ends there:
// a matched panic ends the replay, which passes.
func playerGoPanic(c *Stream, r any) {
	p := play
	fr := frame{site: c.site}
	// playerPanic diverges (and unwinds) unless the log holds this panic.
	playerPanic(c, fr, eventlog.KindPanicOut, r)
	p.mu.Lock()
	if p.done {
		p.mu.Unlock()
		return
	}
	p.finishLocked()
	p.report.Verdict = "pass"
	p.report.Replayed = p.replayed
	p.report.Notes = append(p.report.Notes, fmt.Sprintf("the capture ended with a panic in a goroutine started by observed code (%s at %s); replay reproduced it and stops there", c.site.Name, c.site.Pos))
	r2 := p.report
	p.mu.Unlock()
	p.cond.Broadcast()
	if p.exits {
		writeReport(&r2)
		os.Exit(0)
	}
}
