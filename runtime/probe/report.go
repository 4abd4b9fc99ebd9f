package probe

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Environment of a replay harness child (set by `capture replay`; the rest
// of the environment is empty: replay is hermetic).
const (
	EnvReplayLog    = "CAPTURE_REPLAY_LOG"
	EnvReplayCheck  = "CAPTURE_REPLAY_CHECK"  // strict (default), returns, crash
	EnvReplayReport = "CAPTURE_REPLAY_REPORT" // JSON report path
	// EnvReplayTrace names a file that receives, one line per event, the
	// events in the order the player released them ("seq stream kind
	// site"): two replays of one log are compared by it.
	EnvReplayTrace = "CAPTURE_REPLAY_TRACE"
	// EnvReplayStall is how long (a Go duration, default 10s) replay may
	// release no event before it reports a deadlock instead of hanging.
	EnvReplayStall = "CAPTURE_REPLAY_STALL"
)

// DefaultStall is how long replay may make no progress before it reports
// the goroutine that never reached its next event (EnvReplayStall).
const DefaultStall = 10 * time.Second

// Check levels (docs/divergence.md, "What is compared").
const (
	CheckStrict  = "strict"  // every outgoing event must match
	CheckReturns = "returns" // incall results and panics must match; outcalls must be answerable
	CheckCrash   = "crash"   // only new or changed panics fail
)

// Report is the outcome of replaying one log, written as JSON.
type Report struct {
	Log        string      `json:"log"`
	Check      string      `json:"check"`
	Verdict    string      `json:"verdict"` // "pass" or "diverged" or "error"
	Events     int         `json:"events"`  // events in the log
	Replayed   int         `json:"replayed"`
	Divergence *Divergence `json:"divergence,omitempty"`
	Notes      []string    `json:"notes,omitempty"`
	// Ended says where replay stopped in a log that its writer never
	// closed (killed, crashed, or still writing): the events past its end
	// were not judged. Empty for a closed log. It is among Notes too.
	Ended string `json:"ended,omitempty"`
}

// Divergence is the first out-of-sync event.
type Divergence struct {
	Seq       uint64 `json:"seq"`    // of the expected event (0: past the end of the log)
	Stream    uint32 `json:"stream"` // logical goroutine
	Reason    string `json:"reason"`
	Expected  string `json:"expected"`            // the event the log holds
	Actual    string `json:"actual"`              // what the code did
	Pos       string `json:"pos"`                 // original file:line where the code did it
	Candidate string `json:"candidate,omitempty"` // closest event of the log for what the code did
}

func (d *Divergence) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "divergence at seq %d (stream %d): %s\n", d.Seq, d.Stream, d.Reason)
	if d.Pos != "" {
		fmt.Fprintf(&b, "  at:        %s\n", d.Pos)
	}
	fmt.Fprintf(&b, "  expected:  %s\n", d.Expected)
	fmt.Fprintf(&b, "  actual:    %s\n", d.Actual)
	if d.Candidate != "" {
		fmt.Fprintf(&b, "  candidate: %s\n", d.Candidate)
	}
	return b.String()
}

// reportMu serialises writeReport: two goroutines can end a replay at once
// (a diverging goroutine exits while the main goroutine reports the end of
// the log). With one shared temporary file, the second writer truncated the
// file the first was renaming into place, and the first's os.Exit left an
// empty report (TestConcurrentReportsStayWhole).
var reportMu sync.Mutex

func writeReport(r *Report) {
	path := os.Getenv(EnvReplayReport)
	if path == "" {
		return
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		fmt.Fprintf(os.Stderr, "replay: encoding the report: %v\n", err)
		return
	}
	reportMu.Lock()
	defer reportMu.Unlock()
	// Write a temporary file of this call's own, then rename: a reader never
	// sees half a report, even if the process dies while writing it.
	err = writeFileAtomic(path, b)
	if err != nil {
		fmt.Fprintf(os.Stderr, "replay: writing the report: %v\n", err)
	}
}

func writeFileAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Main is the body of a replay harness: run by the parent with log paths it
// replays each in a child process; run as a child it replays its log.
// It returns the process exit code.
func Main() int {
	if play == nil {
		fmt.Fprintln(os.Stderr, "replay: "+EnvReplayLog+" is not set (run the harness through `capture replay`)")
		return 2
	}
	r := Replay()
	writeReport(r)
	if path := os.Getenv(EnvReplayTrace); path != "" {
		if err := os.WriteFile(path, []byte(strings.Join(Trace(), "\n")+"\n"), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "replay: writing the trace: %v\n", err)
		}
	}
	if r.Verdict != "pass" {
		if r.Divergence != nil {
			fmt.Fprint(os.Stderr, r.Divergence.String())
		}
		return 1
	}
	return 0
}
