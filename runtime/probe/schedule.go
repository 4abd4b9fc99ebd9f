package probe

import (
	"fmt"
	"sync"
)

// abortReplay unwinds goroutines after a divergence when abort returns
// (tests of the player); the process normally exits first.
type abortReplay struct{}

func (p *player) isDone() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done
}

func (p *player) waitTurn(i int) {
	p.mu.Lock()
	if p.next != i && !p.done && !p.ownGap(i) {
		sr := p.streams[p.ev(i).Stream]
		if sr.turn == nil {
			sr.turn = sync.NewCond(&p.mu)
		}
		p.waiting[i]++
		for p.next != i && !p.done && !p.ownGap(i) {
			if p.stalled && i == p.minWaiting() {
				// No stream can make progress in the recorded order: observed
				// code synchronises internally (a mutex held across an
				// outcall) and replay's goroutines took it in another order.
				// Let the earliest waiting event go first. Whether it is
				// released out of order is counted at its release: a
				// goroutine let go before its CALL_IN waits again at the
				// CALL_IN itself, and may get its turn in order.
				p.stalled = false
				break
			}
			sr.turn.Wait()
		}
		if p.waiting[i]--; p.waiting[i] == 0 {
			delete(p.waiting, i)
		}
	}
	done := p.done
	p.mu.Unlock()
	if done {
		if p.exits {
			// The diverging goroutine is writing the report and will end
			// the process: wait for it rather than crash first.
			select {}
		}
		panic(abortReplay{})
	}
}

func (p *player) minWaiting() int {
	m := -1
	for i := range p.waiting {
		if m < 0 || i < m {
			m = i
		}
	}
	return m
}

// release marks event i replayed.
func (p *player) release(i int) {
	p.mu.Lock()
	if i > p.next && !p.ownGap(i) {
		// An earlier event of another stream is not replayed yet: the
		// event goes out of the recorded order (let go by waitTurn).
		p.relaxed++
	}
	// A release is progress: a stall the watchdog saw before it is over,
	// and a later one is detected anew.
	p.stalled = false
	c, k := p.chunkOf(i)
	c.consumed[k] = true
	e := &c.ev[k]
	if sr := p.streams[e.Stream]; sr.lastRel.e == nil || i > sr.lastRel.i {
		sr.lastRel = qent{i, e}
	}
	if p.tracing {
		p.trace = append(p.trace, fmt.Sprintf("%d %d %s %s", e.Seq, e.Stream, e.Kind, e.Site))
	}
	for p.next < p.total && p.consumedLocked(p.next) {
		p.next++
	}
	p.setNextLocked()
	if p.next == p.total {
		select {
		case <-p.exhausted:
		default:
			close(p.exhausted)
		}
	}
	p.replayed++
	p.releases.Add(1)
	if p.resynced {
		p.wakeAllLocked() // a stream may now wait only for its own events (ownGap)
	} else if p.next < p.load.hiA.Load() {
		// (An event not read yet has no goroutine waiting for it.)
		if sr := p.streams[p.ev(p.next).Stream]; sr.turn != nil {
			sr.turn.Broadcast()
		}
	}
	p.mu.Unlock()
	p.cond.Broadcast() // waitQuiet
}

// wakeAllLocked wakes every goroutine waiting for its turn: the replay
// ended, or the earliest waiting event is let go (called with p.mu held).
func (p *player) wakeAllLocked() {
	for _, sr := range p.streams {
		if sr.turn != nil {
			sr.turn.Broadcast()
		}
	}
}
