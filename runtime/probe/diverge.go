package probe

import (
	"fmt"
	"os"

	"github.com/rules-capture/rules_capture/runtime/value"
)

func (p *player) note(d *Divergence) {
	p.mu.Lock()
	p.report.Notes = append(p.report.Notes, fmt.Sprintf("ignored at check level %s: %s", p.level, d.String()))
	p.mu.Unlock()
}

func (p *player) diverge(d *Divergence) {
	p.mu.Lock()
	first := p.divergeLocked(d)
	p.mu.Unlock()
	p.cond.Broadcast()
	if first {
		p.abort(d)
	} else if p.exits {
		// Another goroutine reported first and is writing the report
		// before it ends the process. Unwinding this one could crash the
		// process first: a goroutine external code started (sync's
		// WaitGroup.Go re-panics what its function raised) does not
		// recover the abort. Wait for the exit instead.
		select {}
	}
}

func (p *player) divergeLocked(d *Divergence) bool {
	if p.done {
		return false
	}
	if p.cut {
		p.report.Notes = append(p.report.Notes, fmt.Sprintf("the log was not closed (state=open: its writer was killed, crashed or is still writing); the divergence lies within the %d events it holds", p.total))
		if len(p.parked) > 0 {
			p.report.Notes = append(p.report.Notes, fmt.Sprintf("%d goroutines had gone on past the last event of their stream and were stopped there (streams %s)", len(p.parked), streamList(p.parked)))
		}
	}
	p.finishLocked()
	if note := value.RedactionNote(d.Actual); note != "" {
		d.Reason += "; " + note
	}
	p.report.Verdict = "diverged"
	p.report.Divergence = d
	p.report.Replayed = p.replayed
	return true
}

// finishLocked ends the replay (called with p.mu held, once).
func (p *player) finishLocked() {
	p.done = true
	close(p.stopped)
	p.wakeAllLocked()
}

func (p *player) exitOnDivergence(d *Divergence) {
	fmt.Fprint(os.Stderr, d.String())
	p.mu.Lock()
	r := p.report
	p.mu.Unlock()
	writeReport(&r)
	os.Exit(1)
}
