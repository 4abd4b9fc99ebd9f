package probe

import (
	"fmt"
	"io"
	"os"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// startReplay loads the log named by CAPTURE_REPLAY_LOG before any observed
// package initialises, so that their init outcalls are answered from it.
func startReplay() {
	path := os.Getenv(EnvReplayLog)
	if path == "" {
		return // the harness's parent process: it only launches children
	}
	p, err := loadLog(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "replay: %v\n", err)
		writeReport(&Report{Log: path, Verdict: "error", Notes: []string{err.Error()}})
		os.Exit(3)
	}
	p.level = os.Getenv(EnvReplayCheck)
	switch p.level {
	case "":
		p.level = CheckStrict
	case CheckStrict, CheckReturns, CheckCrash:
	default:
		fmt.Fprintf(os.Stderr, "replay: unknown check level %q (want strict, returns or crash)\n", p.level)
		os.Exit(3)
	}
	p.report.Check = p.level
	if err := p.configure(); err != nil {
		fmt.Fprintf(os.Stderr, "replay: %v\n", err)
		os.Exit(3)
	}
	install(p)
}

// LoadReplay makes the log at path the one Replay drives, with the given
// check level (tests and benchmarks of replay; a harness loads its log from
// the environment before package initialisation). Package initialisation
// has already run, so a log whose stream 0 starts with initialisation
// events diverges.
func LoadReplay(path, check string) error {
	p, err := loadLog(path)
	if err != nil {
		return err
	}
	if check == "" {
		check = CheckStrict
	}
	p.level = check
	p.report.Check = check
	p.abort = func(*Divergence) {}
	p.exits = false
	if err := p.configure(); err != nil {
		return err
	}
	install(p)
	return nil
}

// loadLog checks the log at path and makes a player that streams it.
//
// Replay reads the log twice. The first pass reads it whole, one record
// batch at a time, before anything is replayed: every batch's checksum,
// the order of the events and, for a closed log, its event count and
// end-of-stream marker are checked there (a cut or damaged log is an
// error, as it always was, never a short pass), and what replay must know
// before it starts is collected: the streams in order of first appearance
// and their event counts, the streams of goroutines started by observed
// code, whether the log holds turns, and for a cut log where each stream
// was when it ended. That is bounded by the number of streams, not events.
// The second pass (window.go) reads the events again, in chunks, as the
// replaying goroutines need them; its batches are checked again as read,
// and a log that no longer reads as it did ends the replay with an error.
func loadLog(path string) (*player, error) {
	r, err := eventlog.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if st := r.Meta().Status; st.Dropped > 0 {
		return nil, droppedEventsError(path, st)
	}
	p := newPlayer()
	p.report.Log = path
	p.format = r.Meta().FormatVersion
	p.cut = !r.Meta().Status.Closed
	type cutState struct{ depth, outside int }
	var depth map[uint32]*cutState
	if p.cut {
		depth = map[uint32]*cutState{}
	}
	var last *streamReplay
	for {
		e, err := p.nextPlayed(r)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		sr := last
		if sr == nil || sr.id != e.Stream {
			sr = p.stream(e.Stream)
			last = sr
		}
		switch e.Kind {
		case eventlog.KindChanTurn:
			p.hasTurns = true
		case eventlog.KindLockTurn:
			p.hasLockTurns = true
		case eventlog.KindGo:
			d := value.Decoder{Buf: e.Values}
			if id := uint32(d.Uint()); d.Err == nil {
				p.children[id] = true // started by the replayed code, not driven
			}
		}
		if depth != nil {
			// Where each stream is at the log's end: the events after its
			// last point outside every call (a top-level incall's RETURN_IN
			// or PANIC_OUT, or for a goroutine started by observed code an
			// outcall's outcome) belong to the calls in progress.
			c := depth[e.Stream]
			if c == nil {
				c = &cutState{}
				depth[e.Stream] = c
			}
			switch e.Kind {
			case eventlog.KindCallIn, eventlog.KindCallOut:
				c.depth++
			case eventlog.KindReturnIn, eventlog.KindPanicOut, eventlog.KindReturnOut, eventlog.KindPanicIn:
				c.depth = max(c.depth-1, 0)
			}
			if c.depth == 0 {
				c.outside = sr.total + 1
			}
		}
		sr.total++
		p.total++
	}
	p.report.Events = p.total
	if st := r.Meta().Status; st.Closed && st.Dropped > 0 {
		p.report.Notes = append(p.report.Notes, fmt.Sprintf("log is incomplete (closed=%v, dropped=%d): replay stops where it ends", st.Closed, st.Dropped))
	}
	if p.cut {
		for _, id := range p.order {
			sr, c := p.streams[id], depth[id]
			p.cutStats.complete += c.outside
			if c.depth > 0 {
				p.cutStats.open += sr.total - c.outside
				p.cutStats.streams = append(p.cutStats.streams, id)
			}
		}
	}
	// The second pass reads from the start; a cut log is read up to the
	// events the first pass found (its writer may still be appending).
	r2, err := eventlog.Open(path)
	if err != nil {
		return nil, err
	}
	p.load.r = r2
	p.load.path = path
	// Values of older formats are rewritten into today's encoding, which
	// the replayed code's values are compared with byte for byte.
	p.load.upgrade = r2.Meta().FormatVersion <= value.LastNamedStructFormat
	return p, nil
}
