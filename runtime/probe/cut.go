package probe

import (
	"fmt"
	"os"
	"sort"
	"strings"
)

// parkUnanswered blocks, for good, a goroutine started by observed code
// whose outcall of frame fr is the last event of its stream in the log: the
// capture ended while the goroutine was inside that outcall (golang-lru's
// expirable reaper in its select, or in time.Sleep, when the test ended), so
// the log has no outcome, and the capture's goroutine never went further.
// Replay leaves it there, as the capture did, rather than reporting an
// event after the log's end; the report says so.
//
// The same holds for a driven stream other than stream 0: a goroutine that
// external code started, inside an incall, when the capture's process
// ended. The waitgroup corpus program's last fan.Work is one: its deferred
// wg.Done (an outcall) wakes main's wg.Wait, main returns and the log is
// closed before the worker records Done's RETURN_OUT and Work's RETURN_IN
// (a log in about one capture in ten; replay of it always diverged). Its
// driver is counted out of Replay's wait (driverDone).
//
// Not done for a new outcall past the log's end: the goroutine may have
// ended in the capture, and the new outcall is a divergence.
func (p *player) parkUnanswered(s *Stream, fr frame) {
	p.mu.Lock()
	child := p.children[s.id]
	if child {
		p.unanswered = append(p.unanswered, fr.site.Name)
		p.live-- // waitChildren does not wait for it
	} else {
		p.drivenStuck = append(p.drivenStuck, fr.site.Name)
	}
	p.mu.Unlock()
	p.cond.Broadcast()
	if sr := s.replay; !child && sr.driverDone != nil {
		sr.driverDone() // Replay does not wait for its driver
	}
	select {} // the harness exits once the replay has ended
}

// parkAtEnd stops, for good, the goroutine of s, which is about to make a
// boundary event past its stream's last event in a cut log (player.cut):
// the capture's goroutine went on, but the log ended before its next event,
// so there is nothing to compare that event with nor an outcome to return.
// The goroutine stops before the event, holding what it held then; by the
// cut's consistency no event in the log waited for what it did later. Its
// driver, or the goroutine started by observed code, no longer counts as
// running for Replay's end.
func (p *player) parkAtEnd(s *Stream) {
	p.mu.Lock()
	if p.done {
		p.mu.Unlock()
		p.waitTurn(-1) // the replay has ended: unwinds, or waits for the exit
	}
	p.parked = append(p.parked, s.id)
	if p.children[s.id] {
		p.live-- // waitChildren does not wait for it
	}
	started := p.started
	p.mu.Unlock()
	p.cond.Broadcast()
	if sr := s.replay; sr != nil && sr.driverDone != nil {
		sr.driverDone()
	}
	if !started && p.exits {
		p.endInInit()
	}
	select {} // the harness exits once the replay has ended
}

// endInInit ends the replay of a cut log that ended during package
// initialisation: the harness's main goroutine stopped there (parkAtEnd),
// so Replay never runs; what was replayed passed.
func (p *player) endInInit() {
	p.mu.Lock()
	p.finishLocked()
	p.report.Verdict = "pass"
	p.report.Replayed = p.replayed
	p.report.Ended = fmt.Sprintf("the log ended during package initialisation, while the process ran (state=open: its writer was killed, crashed or is still writing): replayed %d of %d events; what came after is not judged", p.replayed, p.total)
	p.report.Notes = append(p.report.Notes, p.report.Ended)
	r := p.report
	r.Notes = append([]string(nil), p.report.Notes...)
	p.mu.Unlock()
	writeReport(&r)
	os.Exit(0)
}

// cutStats describes where the goroutines of a cut log were when it ended.
type cutStats struct {
	complete int      // events of calls that completed (or outside any call)
	open     int      // events of the calls in progress at the log's end
	streams  []uint32 // streams that were inside a call at the log's end
}

// describeCutLocked is the report's note on a cut log that replayed to its
// end (called with p.mu held).
func (p *player) describeCutLocked() string {
	c := p.cutStats
	var b strings.Builder
	fmt.Fprintf(&b, "log ended while the process ran (state=open: its writer was killed, crashed or is still writing): replayed %d of %d events", p.replayed, p.total)
	if len(c.streams) == 0 {
		b.WriteString("; every goroutine was outside any call at the log's end")
	} else {
		fmt.Fprintf(&b, "; %d of them lie in calls that completed, %d in the calls of %d goroutines in progress at the log's end (streams %s), replayed up to it",
			c.complete, c.open, len(c.streams), streamList(c.streams))
	}
	if len(p.parked) > 0 {
		fmt.Fprintf(&b, "; %d goroutines went on past their stream's last event and were stopped there (streams %s): what they did after the log's end is not judged", len(p.parked), streamList(p.parked))
	} else {
		b.WriteString("; what came after the log's end is not judged")
	}
	return b.String()
}

// streamList names up to 8 streams, sorted, for a note.
func streamList(ids []uint32) string {
	s := append([]uint32(nil), ids...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	var parts []string
	for k, id := range s {
		if k == 8 {
			parts = append(parts, fmt.Sprintf("and %d more", len(s)-k))
			break
		}
		parts = append(parts, fmt.Sprint(id))
	}
	return strings.Join(parts, ", ")
}
