package probe

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Replay holds a window of the log, not the log (docs/performance.md,
// "Replay memory"). Events keep the index they have in the log; they are
// read in chunks of chunkEvents, in order, when a goroutine needs an event
// that has not been read yet (its stream's next one, or the outcome of an
// outcall it looks for), and a chunk is dropped once every event in it has
// been released. What replay holds at a time is therefore the events from
// the earliest one not yet released to the furthest any stream has had to
// look ahead: the interleaving distance between streams, not the log's
// length.
const (
	chunkBits   = 12
	chunkEvents = 1 << chunkBits
	chunkMask   = chunkEvents - 1
)

// chunk is chunkEvents consecutive events of the log (fewer in the last).
// Its events are immutable once the chunk is published in the window.
type chunk struct {
	ev       []eventlog.Event
	consumed []bool // by position: released (under player.mu)

	// First appearances of object IDs, by position, worked out when an
	// event needs them (numbering.go; under player.objMu).
	ids   [][]uint64
	taken []int
}

// window is the chunks replay holds, the first being chunk number first
// (events first<<chunkBits on). It is replaced, never changed, so that
// events are found without a lock.
type window struct {
	first  int
	chunks []*chunk
}

// qent is a stream's event: its index in the log, and the event.
type qent struct {
	i int
	e *eventlog.Event
}

// loader reads the log for the window, under its own mutex (taken with
// player.mu held or not; it never takes player.mu itself).
type loader struct {
	mu      sync.Mutex
	r       *eventlog.Reader // nil for a player built in memory (add)
	path    string
	upgrade bool      // rewrite values of older formats into today's encoding
	hi      int       // events read
	hiA     atomicInt // hi, read without the mutex
	err     error     // the log could not be read again
	keep    bool      // never drop chunks (a player built in memory)
}

// ev returns event i of the log, reading the log up to it if need be.
func (p *player) ev(i int) *eventlog.Event {
	w := p.win.Load()
	if w != nil {
		if c := i>>chunkBits - w.first; c >= 0 && c < len(w.chunks) && i&chunkMask < len(w.chunks[c].ev) {
			return &w.chunks[c].ev[i&chunkMask]
		}
	}
	return p.evSlow(i)
}

func (p *player) evSlow(i int) *eventlog.Event {
	if i < 0 || i >= p.total {
		panic(fmt.Sprintf("replay: event %d of a log of %d", i, p.total))
	}
	p.load.mu.Lock()
	for p.load.hi <= i {
		p.readChunkLocked()
	}
	p.load.mu.Unlock()
	w := p.win.Load()
	c := i>>chunkBits - w.first
	if c < 0 {
		panic(fmt.Sprintf("replay: event %d was dropped from the window (it starts at %d)", i, w.first<<chunkBits))
	}
	return &w.chunks[c].ev[i&chunkMask]
}

// chunkOf returns the chunk holding event i and i's position in it, or nil
// if the chunk was dropped (every event in it was released).
func (p *player) chunkOf(i int) (*chunk, int) {
	if w := p.win.Load(); w != nil {
		if c := i>>chunkBits - w.first; c >= 0 && c < len(w.chunks) {
			return w.chunks[c], i & chunkMask
		}
	}
	if i >= p.load.hiA.Load() && i < p.total {
		p.ev(i) // reads it
		return p.chunkOf(i)
	}
	return nil, 0
}

// consumedLocked reports whether event i has been released (called with
// p.mu held).
func (p *player) consumedLocked(i int) bool {
	if i < p.next {
		return true
	}
	if i >= p.load.hiA.Load() {
		return false
	}
	c, k := p.chunkOf(i)
	return c == nil || c.consumed[k]
}

// at returns the index and event of sr's k-th event (k from sr.cur on),
// reading the log up to it.
func (p *player) at(sr *streamReplay, k int) (int, *eventlog.Event) {
	if k < sr.off || k >= sr.total {
		panic(fmt.Sprintf("replay: event %d of stream %d (it has %d, %d dropped)", k, sr.id, sr.total, sr.off))
	}
	for k-sr.off >= len(sr.q) {
		p.fill(sr)
	}
	q := sr.q[k-sr.off]
	return q.i, q.e
}

// idx returns the index of sr's k-th event.
func (p *player) idx(sr *streamReplay, k int) int {
	i, _ := p.at(sr, k)
	return i
}

// Look-ahead is bounded: a stream whose next event lies beyond
// maxAhead events past the first one not yet released waits for replay to
// catch up rather than read on (a goroutine blocked in an outcall for the
// whole run, or a background job that wakes rarely, would otherwise make
// replay hold every event up to its next one). If nothing is released for
// aheadIdle, it reads on all the same, one chunk, then twice as many after
// each further aheadIdle without a release, until it finds its event:
// replay may be waiting for that event (waitTurn lets the earliest waiting
// event go when replay stalls), while a pause of a loaded machine costs a
// chunk more of look-ahead, no more.
const (
	maxAhead  = 16 * chunkEvents
	aheadPoll = 2 * time.Millisecond
	aheadIdle = 100 * time.Millisecond
)

// fill moves the events read for sr into its queue, reading the log until
// there is one, and drops from the queue the events before the last one
// consumed (called by the stream's goroutine, holding none of the player's
// mutexes).
func (p *player) fill(sr *streamReplay) {
	l := &p.load
	l.mu.Lock()
	defer l.mu.Unlock()
	released, since := p.releases.Load(), time.Now()
	burst, credit := 1, 0 // chunks to read past the bound, and those left
	for len(sr.pending) == 0 {
		if !l.keep && l.hi-int(p.nextA.Load()) >= maxAhead && credit == 0 {
			if r := p.releases.Load(); r != released {
				released, since, burst = r, time.Now(), 1
			}
			if time.Since(since) < aheadIdle {
				l.mu.Unlock()
				time.Sleep(aheadPoll)
				l.mu.Lock()
				continue
			}
			credit, since = burst, time.Now()
			burst *= 2
		}
		if credit > 0 {
			credit--
		}
		p.readChunkLocked()
	}
	if drop := sr.cur - 1 - sr.off; drop > 0 {
		n := copy(sr.q, sr.q[drop:])
		clear(sr.q[n:])
		sr.q = sr.q[:n]
		sr.off += drop
	}
	sr.q = append(sr.q, sr.pending...)
	clear(sr.pending)
	sr.pending = sr.pending[:0]
}

// readChunkLocked reads the next chunk of the log into the window and the
// pending queues of its streams, dropping the chunks whose events have all
// been released (called with p.load.mu held).
func (p *player) readChunkLocked() {
	l := &p.load
	if l.r == nil || l.err != nil {
		p.loadFailed(fmt.Errorf("replay read past the %d events of the log", l.hi))
	}
	c := &chunk{ev: make([]eventlog.Event, 0, chunkEvents)}
	var arena []byte
	var ends [chunkEvents]int
	for len(c.ev) < chunkEvents && l.hi+len(c.ev) < p.total {
		e, err := p.nextPlayed(l.r)
		if err == io.EOF {
			err = fmt.Errorf("the log ends after %d of the %d events it held when replay checked it", l.hi+len(c.ev), p.total)
		}
		if err != nil {
			l.err = err
			p.loadFailed(err)
		}
		vals := e.Values
		if l.upgrade {
			if up, err := value.Upgrade(vals); err == nil {
				vals = up
			} // else kept as it is: decoding it reports the corruption at its event
		}
		arena = append(arena, vals...)
		ends[len(c.ev)] = len(arena)
		ev := *e
		ev.Values = nil
		c.ev = append(c.ev, ev)
	}
	start := 0
	for k := range c.ev {
		c.ev[k].Values = arena[start:ends[k]:ends[k]]
		start = ends[k]
	}
	c.consumed = make([]bool, len(c.ev))
	for k := range c.ev {
		e := &c.ev[k]
		sr := p.streams[e.Stream]
		if sr == nil {
			err := fmt.Errorf("event seq %d of stream %d, a stream the log did not hold when replay checked it", e.Seq, e.Stream)
			l.err = err
			p.loadFailed(err)
		}
		sr.pending = append(sr.pending, qent{l.hi + k, e})
	}
	p.publishLocked(c)
}

// publishLocked adds c, the next chunk, to the window, dropping the chunks
// before the first event not yet released.
func (p *player) publishLocked(c *chunk) {
	l := &p.load
	old := p.win.Load()
	w := &window{}
	if old != nil {
		w.first = old.first
		w.chunks = old.chunks
		if !l.keep {
			drop := 0
			next := int(p.nextA.Load())
			for drop < len(w.chunks) && (w.first+drop+1)<<chunkBits <= next {
				drop++
			}
			w.first += drop
			w.chunks = w.chunks[drop:]
		}
	}
	w.chunks = append(w.chunks[:len(w.chunks):len(w.chunks)], c)
	l.hi += len(c.ev)
	l.hiA.Store(l.hi)
	p.win.Store(w)
}

// loadFailed ends a replay whose log cannot be read again: it was checked
// whole before replay started (load.go), so it changed since.
func (p *player) loadFailed(err error) {
	msg := fmt.Sprintf("reading %s again during replay: %v (the log changed after replay checked it?)", p.load.path, err)
	if p.exits {
		fmt.Fprintf(os.Stderr, "replay: %s\n", msg)
		writeReport(&Report{Log: p.load.path, Verdict: "error", Notes: []string{msg}})
		os.Exit(3)
	}
	go p.diverge(&Divergence{Reason: msg, Actual: "an unreadable log"})
	panic(abortReplay{})
}

// add appends e to a player built in memory (tests of the player): its
// events are all held, in chunks as a loaded log's are.
func (p *player) add(e eventlog.Event) {
	l := &p.load
	l.keep = true
	w := p.win.Load()
	var c *chunk
	if w != nil && len(w.chunks) > 0 && len(w.chunks[len(w.chunks)-1].ev) < chunkEvents {
		c = w.chunks[len(w.chunks)-1]
	} else {
		c = &chunk{ev: make([]eventlog.Event, 0, chunkEvents), consumed: make([]bool, 0, chunkEvents)}
		nw := &window{}
		if w != nil {
			nw.chunks = append(nw.chunks, w.chunks...)
		}
		nw.chunks = append(nw.chunks, c)
		p.win.Store(nw)
	}
	c.ev = append(c.ev, e)
	c.consumed = append(c.consumed, false)
	sr := p.stream(e.Stream)
	sr.q = append(sr.q, qent{p.total, &c.ev[len(c.ev)-1]})
	sr.total++
	p.total++
	l.hi = p.total
	l.hiA.Store(p.total)
	p.report.Events++
}

// windowStart is the index of the first event the window holds.
func (p *player) windowStart() int {
	w := p.win.Load()
	if w == nil {
		return 0
	}
	return w.first << chunkBits
}

// scanLog calls f with every event of the log in order, from its start,
// read anew (a loaded player) or from memory (a player built with add),
// until f returns false. The event is valid during the call.
func (p *player) scanLog(f func(i int, e *eventlog.Event) bool) error {
	if p.load.r == nil {
		for i := range p.total {
			if !f(i, p.ev(i)) {
				break
			}
		}
		return nil
	}
	r, err := eventlog.Open(p.load.path)
	if err != nil {
		return err
	}
	defer r.Close()
	for i := 0; ; i++ {
		e, err := p.nextPlayed(r)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if p.load.upgrade {
			if up, err := value.Upgrade(e.Values); err == nil {
				e.Values = up
			}
		}
		if !f(i, e) {
			return nil
		}
	}
}

// setNextLocked records p.next where the loader can read it without p.mu.
func (p *player) setNextLocked() { p.nextA.Store(int64(p.next)) }

// atomicInt is an int read and written atomically (loader.hiA).
type atomicInt struct{ v atomic.Int64 }

func (a *atomicInt) Load() int   { return int(a.v.Load()) }
func (a *atomicInt) Store(n int) { a.v.Store(int64(n)) }
