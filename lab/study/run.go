package study

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rules-capture/rules_capture/runtime/probectl"
)

// cmd is one external command of the study, with a deadline.
type cmd struct {
	c       *exec.Cmd
	ctx     context.Context
	cancel  context.CancelFunc
	timeout time.Duration
}

func (r *runner) command(dir string, env []string, name string, args ...string) *cmd {
	return r.commandFor(r.cfg.Timeout, dir, env, name, args...)
}

// commandFor is command with a deadline of its own.
func (r *runner) commandFor(timeout time.Duration, dir string, env []string, name string, args ...string) *cmd {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	c := exec.CommandContext(ctx, name, args...)
	c.Dir = dir
	c.Env = append(os.Environ(), env...)
	c.WaitDelay = 5 * time.Second
	if r.cfg.Verbose {
		r.logf("+ (cd %s && %s %s)", dir, name, strings.Join(args, " "))
	}
	return &cmd{c: c, ctx: ctx, cancel: cancel, timeout: timeout}
}

// output runs the command and returns its stdout; the error carries the
// tail of stderr.
func (c *cmd) output() ([]byte, error) {
	defer c.cancel()
	var stderr bytes.Buffer
	c.c.Stderr = &stderr
	out, err := c.c.Output()
	return out, c.explain(err, stderr.Bytes())
}

// combined runs the command and returns stdout and stderr separately,
// with the exit code (-1 if it did not run or timed out).
func (c *cmd) combined() (stdout, stderr []byte, code int, err error) {
	return c.watched(nil)
}

// watched is combined, with watch (if not nil) called with the process's
// id once it started; what watch returns is called when it ended.
func (c *cmd) watched(watch func(pid int) (stop func())) (stdout, stderr []byte, code int, err error) {
	defer c.cancel()
	var o, e bytes.Buffer
	c.c.Stdout, c.c.Stderr = &o, &e
	err = c.c.Start()
	if err == nil {
		if watch != nil {
			stop := watch(c.c.Process.Pid)
			err = c.c.Wait()
			stop()
		} else {
			err = c.c.Wait()
		}
	}
	code = 0
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && c.c.ProcessState != nil && ee.ExitCode() >= 0 {
			code = ee.ExitCode()
			err = nil
		} else {
			code = -1
			err = c.explain(err, e.Bytes())
		}
	}
	return o.Bytes(), e.Bytes(), code, err
}

func (c *cmd) explain(err error, stderr []byte) error {
	if err == nil {
		return nil
	}
	args := c.c.Args
	if len(args) > 6 {
		args = append(args[:6:6], "...")
	}
	msg := fmt.Sprintf("%s: %v", strings.Join(args, " "), err)
	if c.ctx.Err() != nil {
		msg += fmt.Sprintf(" (timed out after %v; raise -timeout)", c.timeout)
	}
	return fmt.Errorf("%s\n%s", msg, tail(stderr, 20))
}

// tail returns the last n lines of b.
func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// testRun is one line of `capture test` output: a test run under capture.
type testRun struct {
	Package string `json:"package"`
	Test    string `json:"test"`
	Log     string `json:"log"`
	Passed  bool   `json:"passed"`
}

// parseCaptureTest reads the per-test lines `capture test` prints:
//
//	ok   <pkg>.<Test> -> <log>
//	FAIL <pkg>.<Test> (log <log>)
//
// followed, for FAIL, by the test's output (ignored here). Lines are
// matched against the known test packages because import paths contain
// dots.
func parseCaptureTest(out []byte, testPkgs []string) []testRun {
	var runs []testRun
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		var rest, log string
		passed := false
		switch {
		case strings.HasPrefix(line, "ok   "):
			var ok bool
			rest, log, ok = strings.Cut(strings.TrimPrefix(line, "ok   "), " -> ")
			if !ok {
				continue
			}
			passed = true
		case strings.HasPrefix(line, "FAIL ") && strings.HasSuffix(line, ")"):
			var ok bool
			rest, log, ok = strings.Cut(strings.TrimPrefix(line, "FAIL "), " (log ")
			if !ok {
				continue
			}
			log = strings.TrimSuffix(log, ")")
		default:
			continue
		}
		pkg, test := splitTest(rest, testPkgs)
		if test == "" {
			continue
		}
		runs = append(runs, testRun{Package: pkg, Test: test, Log: log, Passed: passed})
	}
	return runs
}

// splitTest splits "<import path>.<Test>" using the longest known package.
func splitTest(s string, pkgs []string) (pkg, test string) {
	for _, p := range pkgs {
		if strings.HasPrefix(s, p+".") && len(p) > len(pkg) {
			pkg = p
		}
	}
	if pkg == "" {
		i := strings.LastIndex(s, ".")
		if i < 0 {
			return "", ""
		}
		return s[:i], s[i+1:]
	}
	return pkg, s[len(pkg)+1:]
}

// testRejections reads the tests `capture test` did not run because they
// cannot be replayed ("rejected <pkg>.<Test>: file:line: ... is not
// supported in an observed package: fix"), as "<pkg>.<Test>: reason".
func testRejections(out []byte) []string {
	var rej []string
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "rejected "); ok && strings.Contains(rest, ": ") {
			rej = append(rej, rest)
		}
	}
	return rej
}

// rejection extracts the transform's up-front rejections from the output
// of a capture command ("file:line: X is not supported in an observed
// package: fix").
func rejection(stderr []byte) []string {
	var out []string
	for _, line := range strings.Split(string(stderr), "\n") {
		if strings.Contains(line, "is not supported in an observed package") {
			out = append(out, strings.TrimSpace(strings.TrimPrefix(line, "capture test: ")))
		}
	}
	return out
}

// replayOutcome is the verdict on one log.
type replayOutcome struct {
	Log        string               `json:"log"`
	Verdict    string               `json:"verdict"` // pass, diverged, error
	Events     int                  `json:"events"`
	Divergence *probectl.Divergence `json:"divergence,omitempty"`
	Error      string               `json:"error,omitempty"`
}

// readReports reads the JSON reports `capture replay -reports DIR` wrote
// for logs; a log without a report is an error outcome, with the message
// `capture replay` printed for it.
func readReports(dir string, logs []string, stdout []byte) []replayOutcome {
	errs := map[string]string{}
	lines := strings.Split(string(stdout), "\n")
	for i, line := range lines {
		if rest, ok := strings.CutPrefix(line, "ERROR    "); ok {
			log, msg, _ := strings.Cut(rest, ": ")
			// The message continues on the lines up to the next verdict.
			for j := i + 1; j < len(lines) && !isVerdictLine(lines[j]); j++ {
				msg += "\n" + lines[j]
			}
			errs[log] = strings.TrimSpace(msg)
		}
	}
	var out []replayOutcome
	for _, log := range logs {
		o := replayOutcome{Log: log}
		b, err := os.ReadFile(filepath.Join(dir, filepath.Base(log)+".json"))
		var rep probectl.Report
		switch {
		case err != nil:
			o.Verdict = "error"
			o.Error = errs[log]
			if o.Error == "" {
				o.Error = "capture replay wrote no report for this log"
			}
		case json.Unmarshal(b, &rep) != nil:
			o.Verdict, o.Error = "error", "unreadable report"
		default:
			o.Verdict, o.Events, o.Divergence = rep.Verdict, rep.Events, rep.Divergence
			if rep.Verdict == "error" {
				o.Error = strings.Join(rep.Notes, "; ")
			} else if e, ok := errs[log]; ok {
				// capture replay rejected a report the harness wrote.
				o.Verdict, o.Error = "error", e
			}
		}
		out = append(out, o)
	}
	return out
}

func isVerdictLine(l string) bool {
	return strings.HasPrefix(l, "PASS     ") || strings.HasPrefix(l, "DIVERGED ") || strings.HasPrefix(l, "ERROR    ")
}

// median of xs (0 for none); xs is sorted in place.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	m := len(xs) / 2
	if len(xs)%2 == 1 {
		return xs[m]
	}
	return (xs[m-1] + xs[m]) / 2
}
