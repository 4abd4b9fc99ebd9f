package probectl

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Child is one replay of a log in a fresh process of a replay harness: the
// probe runtime loads the log at start-up, before the observed packages
// initialise, so one process replays one log.
type Child struct {
	Harness string   // the harness binary
	Args    []string // its arguments (a test binary as harness: -test.run=^$)
	Log     string   // the log; the child runs in its folder
	Check   string   // check level; empty is CheckStrict
	Report  string   // where the child writes its JSON report
	// Stall, if not empty, is the child's EnvReplayStall: a replay setting
	// that tools pass on from their own environment.
	Stall string
}

// Outcome is what a replay child did.
type Outcome struct {
	// Report is the child's report, or the CrashReport of a child that
	// died without one. Its verdict is Pass or Diverged when Run returns no
	// error.
	Report  *Report
	Output  []byte        // the child's standard output and error, interleaved
	RunErr  error         // how the child ended: nil for exit status 0
	Elapsed time.Duration // how long the child ran
}

// Env is the whole environment of a replay child: nothing but the replay's
// settings. The player answers every outcall from the log, and an empty
// environment makes an escaped os.Getenv visible as a divergence.
func (c Child) Env() []string {
	env := []string{
		EnvReplayLog + "=" + c.Log,
		EnvReplayCheck + "=" + c.check(),
		EnvReplayReport + "=" + c.Report,
	}
	if c.Stall != "" {
		env = append(env, EnvReplayStall+"="+c.Stall)
	}
	return env
}

func (c Child) check() string {
	if c.Check == "" {
		return CheckStrict
	}
	return c.Check
}

// Run replays c.Log in a child process of c.Harness (killed when ctx is
// done) and judges the outcome. It returns an error when the child gave no
// verdict to trust: no report and no crash in its output, a report it
// could not write whole, verdict "error", a pass from a child that failed
// (a harness built with -race exits 66 after reporting a data race), or a
// divergence without details. The Outcome is never nil: its Output and
// RunErr say what the child did either way.
func Run(ctx context.Context, c Child) (*Outcome, error) {
	_ = os.Remove(c.Report) // a report left from an earlier run is no verdict of this one
	cmd := exec.CommandContext(ctx, c.Harness, c.Args...)
	cmd.Env = c.Env()
	cmd.Dir = filepath.Dir(c.Log)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	runErr := cmd.Run()
	o := &Outcome{Output: out.Bytes(), RunErr: runErr, Elapsed: time.Since(start)}
	b, readErr := os.ReadFile(c.Report)
	r, err := judge(c, b, readErr, runErr, o.Output)
	o.Report = r
	if err == nil && readErr != nil {
		// A crash report, for those who read the reports rather than
		// the verdict (capture replay -reports, Bazel's test outputs).
		if b, err := json.MarshalIndent(r, "", "  "); err == nil {
			_ = os.WriteFile(c.Report, b, 0o644)
		}
	}
	return o, err
}

// judge is Run's verdict on a child that ended with runErr after printing
// out, given its report file's contents b (or the error reading it).
func judge(c Child, b []byte, readErr, runErr error, out []byte) (*Report, error) {
	if readErr != nil {
		r, ok := CrashReport(c.Log, c.check(), runErr, out)
		if runErr == nil || !ok {
			return nil, fmt.Errorf("the harness wrote no report (%v):\n%s", runErr, out)
		}
		return r, nil
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("report %s: %w", c.Report, err)
	}
	switch r.Verdict {
	case Pass:
		if runErr != nil {
			return &r, fmt.Errorf("the replay passed but the harness failed (%v):\n%s", runErr, out)
		}
	case Diverged:
		if r.Divergence == nil {
			return &r, fmt.Errorf("divergence without details:\n%s", out)
		}
	case Error:
		return &r, fmt.Errorf("%v\n%s", r.Notes, out)
	default:
		return &r, fmt.Errorf("report %s: unknown verdict %q (child %v):\n%s", c.Report, r.Verdict, runErr, out)
	}
	return &r, nil
}
