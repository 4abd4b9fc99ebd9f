package probe

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rules-capture/rules_capture/runtime/probectl"
)

// The replay child's contract lives in runtime/probectl, which tools import
// without linking this runtime; these names stay for the generated code and
// the programs that use them here.
const (
	EnvReplayLog    = probectl.EnvReplayLog
	EnvReplayCheck  = probectl.EnvReplayCheck
	EnvReplayReport = probectl.EnvReplayReport
	EnvReplayTrace  = probectl.EnvReplayTrace
	EnvReplayStall  = probectl.EnvReplayStall

	DefaultStall = probectl.DefaultStall

	CheckStrict  = probectl.CheckStrict
	CheckReturns = probectl.CheckReturns
	CheckCrash   = probectl.CheckCrash
)

type (
	Report     = probectl.Report
	Divergence = probectl.Divergence
)

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
