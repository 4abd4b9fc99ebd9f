package probe

import (
	"bytes"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/rules-capture/rules_capture/runtime/internal/cputime"
)

// watchdog detects a replay that cannot go on. A replay is deadlocked
// when no event was released and no goroutine of the process can run: all
// wait on a channel, a lock, a WaitGroup or a condition (one snapshot of
// every goroutine's state, taken with the world stopped, on two ticks in a
// row). A goroutine that is merely slow — descheduled on a loaded machine —
// is runnable, so it never counts as a deadlock. On a deadlock with
// goroutines waiting for their turn (observed code holding a lock across
// an outcall, taken by replay's goroutines in another order than in the
// capture) the earliest waiting event goes first (see waitTurn); with
// none, the goroutine whose event is next is blocked for good inside the
// observed code, which is reported as a divergence. If nothing is released
// for p.stall even though goroutines run (an endless loop), that is
// reported too: replay never hangs silently.
func (p *player) watchdog(stop chan struct{}) {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	last, since, cpuSince := -1, time.Now(), cputime.Process()
	blockedTicks := 0
	var buf []byte
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		p.mu.Lock()
		if p.done || p.next >= p.total || p.replayed != last {
			last, since, cpuSince, blockedTicks = p.replayed, time.Now(), cputime.Process(), 0
			p.mu.Unlock()
			continue
		}
		p.mu.Unlock()
		blocked := allBlocked(&buf)
		p.mu.Lock()
		if p.replayed != last || p.done {
			p.mu.Unlock()
			continue
		}
		if !blocked {
			blockedTicks = 0
		} else if blockedTicks++; blockedTicks >= 2 {
			blockedTicks = 0
			if len(p.waiting) > 0 {
				p.stalled = true
				p.wakeAllLocked()
				p.mu.Unlock()
				continue
			}
			if p.quiet == 0 {
				d := p.deadlockLocked(time.Since(since), true)
				p.mu.Unlock()
				p.diverge(d)
				return
			}
		}
		if !stallOver(p.stall, time.Since(since), cputime.Process()-cpuSince, blocked) {
			p.mu.Unlock()
			continue
		}
		d := p.deadlockLocked(time.Since(since), blocked)
		p.mu.Unlock()
		p.diverge(d)
		return
	}
}

// stallOver decides whether a replay that has released nothing for idle
// (wall time; the process used cpu meanwhile) has stalled for good, given
// the limit (EnvReplayStall). With every goroutine blocked, idle alone
// counts. With goroutines running, an endless loop uses CPU, so it takes
// the limit in wall time and half of it in CPU time: a replay starved of
// CPU on a loaded machine runs normally for longer than the limit without
// using it (once a false divergence at 10 s of wall time, 4 s of CPU for
// the whole replay; TestStallOver). A goroutine that runs without using CPU
// (asleep, in a system call) is reported after stallWallFactor limits.
func stallOver(limit, idle, cpu time.Duration, blocked bool) bool {
	if blocked {
		return idle >= limit
	}
	return idle >= limit && cpu >= limit/2 || idle >= stallWallFactor*limit
}

// stallWallFactor bounds the wall time a replay whose goroutines run
// without using CPU may release nothing, in limits (EnvReplayStall).
const stallWallFactor = 6

// allBlocked reports whether every goroutine but the caller waits for
// another goroutine (channel, select, sync primitive): none is running,
// runnable, in a system call or asleep. It reads the headers of a dump of
// all goroutines ("goroutine 7 [chan receive, 2 minutes]:").
func allBlocked(buf *[]byte) bool {
	if len(*buf) == 0 {
		*buf = make([]byte, 1<<20)
	}
	n := runtime.Stack(*buf, true)
	for n == len(*buf) {
		*buf = make([]byte, 2*len(*buf))
		n = runtime.Stack(*buf, true)
	}
	return dumpBlocked((*buf)[:n])
}

// dumpBlocked is allBlocked's reading of a dump whose first goroutine is
// the caller's.
func dumpBlocked(dump []byte) bool {
	self := true // the first goroutine of the dump is the caller
	for len(dump) > 0 {
		line := dump
		if i := bytes.IndexByte(dump, '\n'); i >= 0 {
			line, dump = dump[:i], dump[i+1:]
		} else {
			dump = nil
		}
		if !bytes.HasPrefix(line, []byte("goroutine ")) {
			continue
		}
		if self {
			self = false
			continue
		}
		open, end := bytes.IndexByte(line, '['), bytes.LastIndexByte(line, ']')
		if open < 0 || end < open {
			return false
		}
		state := string(line[open+1 : end])
		if i := strings.IndexByte(state, ','); i >= 0 {
			state = state[:i]
		}
		if (!waitingState(state) && !signalWait(state, dump)) || runtimeSema(state, dump) {
			return false
		}
	}
	return true
}

// runtimeSema: a goroutine in state semacquire whose first frame is not a
// semaphore of package sync or internal/poll (sync.runtime_Semacquire)
// waits on one of the runtime's own (the runtime's frames are not listed):
// a collection starting, or the world being stopped, by a goroutine dump
// like the watchdog's own. It goes on without any other goroutine acting,
// as one that allocates while the watchdog looks does (the player's first
// pass over the log), so it is not blocked. rest starts at its first
// frame.
func runtimeSema(state string, rest []byte) bool {
	if state != "semacquire" {
		return false
	}
	first := rest
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		first = rest[:i]
	}
	return !bytes.HasPrefix(first, []byte("sync.runtime_Semacquire")) && !bytes.HasPrefix(first, []byte("internal/poll.runtime_Semacquire"))
}

// signalWait: the goroutine of os/signal (started by any signal.Notify, e.g.
// by the test wrapper of rules_go) sits in a system call waiting for a
// signal, which replayed code does not send. rest starts at the goroutine's
// first frame.
func signalWait(state string, rest []byte) bool {
	return state == "syscall" && bytes.HasPrefix(rest, []byte("os/signal.signal_recv("))
}

// waitingState: a goroutine in this state runs again only when another
// goroutine acts. Unknown states count as running.
func waitingState(state string) bool {
	switch {
	case strings.HasPrefix(state, "chan "), strings.HasPrefix(state, "select"),
		strings.HasPrefix(state, "sync."), strings.HasPrefix(state, "semacquire"),
		// The finalizer and cleanup goroutines, when listed, wait for the
		// collector, not for replayed code.
		strings.HasPrefix(state, "finalizer wait"), strings.HasPrefix(state, "cleanup wait"):
		return true
	}
	return false
}

// deadlockLocked describes a replay that has released nothing for a while:
// the log's next event, the last event its stream crossed, and the streams
// waiting for their turn (called with p.mu held).
func (p *player) deadlockLocked(idle time.Duration, blocked bool) *Divergence {
	e := p.ev(p.next)
	d := &Divergence{Seq: e.Seq, Stream: e.Stream, Expected: p.describe(e),
		Reason: fmt.Sprintf("deadlock: the goroutine of stream %d waits inside the observed code (on a channel, lock, sync.WaitGroup or condition that code outside the observed set released in the capture?) and every other goroutine waits too, so the log's next event never comes", e.Stream)}
	if blocked && len(p.lockWaits) > 0 {
		d.Reason = fmt.Sprintf("deadlock: goroutines wait for their turn on a lock of the observed set (below) that never comes: the replayed code does not make the acquisition the log gives the turn before theirs, and every other goroutine waits too (the log's next event is of stream %d)", e.Stream)
	}
	if !blocked {
		d.Reason = fmt.Sprintf("replay released no event for %s (%s=%s): the goroutine of stream %d runs but never reaches the log's next event (an endless loop inside the observed code?)", idle.Round(time.Millisecond), EnvReplayStall, p.stall, e.Stream)
	}
	var b strings.Builder
	b.WriteString("nothing")
	// The stream's last event before the next one: in the events replay
	// holds, else its last released (the events before those held were
	// all released).
	last := p.streams[e.Stream].lastRel
	if last.i >= p.next {
		last = qent{}
	}
	for j := p.next - 1; j >= p.windowStart(); j-- {
		if f := p.ev(j); f.Stream == e.Stream && p.consumedLocked(j) {
			last = qent{j, f}
			break
		}
	}
	if f := last.e; f != nil {
		fmt.Fprintf(&b, "; stream %d last crossed the boundary at seq %d: %s", e.Stream, f.Seq, p.describe(f))
		d.Pos = f.Pos
	}
	var waiting []int
	for i := range p.waiting {
		waiting = append(waiting, i)
	}
	sort.Ints(waiting)
	for k, i := range waiting {
		if k == 4 {
			fmt.Fprintf(&b, "; %d more streams wait", len(waiting)-k)
			break
		}
		f := p.ev(i)
		fmt.Fprintf(&b, "; stream %d waits for its turn at seq %d (%s %s)", f.Stream, f.Seq, f.Kind, f.Site)
	}
	b.WriteString(p.describeLockWaitsLocked())
	if len(p.parked) > 0 {
		// In a cut log, a goroutine stopped past the end of its events may
		// hold what the next event's goroutine waits for: replay let it run
		// ahead to a point the capture reached only after this event.
		fmt.Fprintf(&b, "; %d goroutines are stopped past the end of their events in this cut log (streams %s)", len(p.parked), streamList(p.parked))
	}
	d.Actual = b.String()
	return d
}
