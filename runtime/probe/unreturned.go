package probe

import "fmt"

// parkUnreturned blocks, for good, a goroutine that external code started
// (a driven stream other than stream 0) whose incall of frame fr is about
// to return past its stream's last event in the log: the log holds the
// incall's CALL_IN (and whatever it did inside), not its RETURN_IN, so the
// capture's process ended while the goroutine was inside the call (a test
// that starts goroutines calling the package and returns without waiting
// for them: iancoleman/strcase's TestConcurrency starts 10,000). As
// parkUnanswered does for an outcall left without its outcome, replay
// leaves the goroutine there instead of reporting a return after the log's
// end; the report says so. A goroutine of stream 0, or one that observed
// code started, is not parked: stream 0's incalls all return before the
// log closes, and a child's incalls are callbacks its outcalls wait for.
func (p *player) parkUnreturned(s *Stream, fr frame) {
	p.mu.Lock()
	p.unreturned = append(p.unreturned, fr.site.Name)
	p.mu.Unlock()
	p.cond.Broadcast()
	if sr := s.replay; sr.driverDone != nil {
		sr.driverDone() // Replay does not wait for its driver
	}
	select {} // the harness exits once the replay has ended
}

// unreturnedAtEnd reports whether the incall ending on s returns past the
// log's end of a goroutine external code started (parkUnreturned).
func (p *player) unreturnedAtEnd(s *Stream) bool {
	sr := s.replay
	return sr != nil && sr.cur >= sr.total && !p.cut && s.id != 0 && sr.driverDone != nil && !p.children[s.id]
}

// leftRunningLocked names the driven streams whose driver has not ended,
// each by the last event of it that replay released (Replay, once the
// whole log is replayed: they run code past the end of their stream).
func (p *player) leftRunningLocked() []string {
	var out []string
	for _, id := range p.order {
		sr := p.streams[id]
		if sr.driverDone == nil || sr.driverEnded.Load() {
			continue
		}
		if e := sr.lastRel.e; e != nil {
			out = append(out, fmt.Sprintf("stream %d, after %s %s", id, e.Kind, e.Site))
		} else {
			out = append(out, fmt.Sprintf("stream %d", id))
		}
	}
	return out
}
