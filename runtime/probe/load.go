package probe

import (
	"fmt"
	"io"
	"os"
	"strings"

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
	if n := r.Meta().Status.Events; n > 0 && n < 1<<26 {
		p.events = make([]eventlog.Event, 0, n)
	}
	intern := map[string]string{}
	in := func(s string) string {
		if v, ok := intern[s]; ok {
			return v
		}
		s = strings.Clone(s)
		intern[s] = s
		return s
	}
	// Values go to one arena (few allocations, little for the GC to scan);
	// the events get their slices of it once it has stopped growing.
	var arena []byte
	var ends []int
	// Values of older formats are rewritten into today's encoding, which
	// the replayed code's values are compared with byte for byte.
	upgrade := r.Meta().FormatVersion <= value.LastNamedStructFormat
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		c := *e
		c.Site, c.Pos, c.RecvType = in(c.Site), in(c.Pos), in(c.RecvType)
		c.Values = nil
		vals := e.Values
		if upgrade {
			if up, err := value.Upgrade(vals); err == nil {
				vals = up
			} // else kept as it is: decoding it reports the corruption at its event
		}
		arena = append(arena, vals...)
		ends = append(ends, len(arena))
		p.add(c)
	}
	start := 0
	for i := range p.events {
		p.events[i].Values = arena[start:ends[i]:ends[i]]
		start = ends[i]
	}
	for i := range p.events {
		switch p.events[i].Kind {
		case eventlog.KindChanTurn:
			p.hasTurns = true
		case eventlog.KindLockTurn:
			p.hasLockTurns = true
		}
		if e := &p.events[i]; e.Kind == eventlog.KindGo {
			d := value.Decoder{Buf: e.Values}
			if id := uint32(d.Uint()); d.Err == nil {
				p.children[id] = true // started by the replayed code, not driven
			}
		}
	}
	if st := r.Meta().Status; st.Closed && st.Dropped > 0 {
		p.report.Notes = append(p.report.Notes, fmt.Sprintf("log is incomplete (closed=%v, dropped=%d): replay stops where it ends", st.Closed, st.Dropped))
	}
	if p.cut {
		p.cutStats = p.countCut()
	}
	return p, nil
}
