package study

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probectl"
)

// moduleRun is the study of one prepared module.
type moduleRun struct {
	r        *runner
	sub      Subject
	dir      string // the module copy
	base     string // scratch for this subject
	pkgs     []listedPackage
	testPkgs []*testPackage
}

// testPackage is a package with tests, built without capture.
type testPackage struct {
	pkg   listedPackage
	plain string // plain test binary
	tests []*testCase
}

type testCase struct {
	name        string
	plainPassed bool
	plain       time.Duration // wall time of its process without capture
}

// baseline lists the module's packages, builds their test binaries
// without capture and runs each test once on its own, as `capture test`
// will: which tests pass without capture.
func (m *moduleRun) baseline() error {
	pkgs, err := m.r.listPackages(m.dir, m.sub.Patterns)
	if err != nil {
		return err
	}
	m.pkgs = pkgs
	binDir := filepath.Join(m.base, "plain")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		return err
	}
	for _, p := range pkgs {
		if !p.hasTests() {
			continue
		}
		tp := &testPackage{pkg: p, plain: filepath.Join(binDir, binName(p.ImportPath))}
		if _, err := m.r.command(m.dir, nil, "go", "test", "-c", "-o", tp.plain, p.ImportPath).output(); err != nil {
			return fmt.Errorf("building the tests of %s without capture: %v", p.ImportPath, err)
		}
		names, err := m.r.listTests(tp.plain, p.Dir)
		if err != nil {
			return err
		}
		for _, n := range names {
			d, err := m.r.timeTest(tp.plain, p.Dir, n, nil)
			tp.tests = append(tp.tests, &testCase{name: n, plainPassed: err == nil, plain: d.wall})
		}
		m.testPkgs = append(m.testPkgs, tp)
	}
	return nil
}

func binName(importPath string) string { return strings.ReplaceAll(importPath, "/", "_") + ".test" }

// listTests lists the top-level tests of a test binary, as `capture test`
// does.
func (r *runner) listTests(bin, dir string) ([]string, error) {
	c := r.command(dir, []string{probectl.EnvCapture + "=off"}, bin, "-test.list", ".")
	out, err := c.output()
	if err != nil {
		return nil, fmt.Errorf("listing the tests of %s: %v", bin, err)
	}
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if n := strings.TrimSpace(sc.Text()); strings.HasPrefix(n, "Test") {
			names = append(names, n)
		}
	}
	return names, nil
}

// timing is the cost of one test process: wall time, and CPU time (user
// + system) which a loaded machine disturbs less.
type timing struct{ wall, cpu time.Duration }

// timeTest runs one test of bin (all of them for "") in its own process.
func (r *runner) timeTest(bin, dir, name string, env []string) (timing, error) {
	run := "^" + regexp.QuoteMeta(name) + "$"
	if name == "" {
		run = "."
	}
	c := r.command(dir, env, bin, "-test.run", run, "-test.count=1")
	start := time.Now()
	_, err := c.output()
	t := timing{wall: time.Since(start)}
	if ps := c.c.ProcessState; ps != nil {
		t.cpu = ps.UserTime() + ps.SystemTime()
	}
	return t, err
}

// candidates are the packages the study observes one at a time: every
// package with Go files that is not a main package, or the subject's or
// the configuration's list.
func (m *moduleRun) candidates() []string {
	var out []string
	want := m.sub.Observe
	if len(m.r.cfg.Packages) > 0 {
		want = m.r.cfg.Packages
	}
	for _, p := range m.pkgs {
		if len(p.GoFiles) == 0 || p.Name == "main" {
			continue
		}
		if len(want) > 0 && !containsString(want, p.ImportPath) {
			continue
		}
		out = append(out, p.ImportPath)
	}
	return out
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (m *moduleRun) testPkgPaths() []string {
	var out []string
	for _, tp := range m.testPkgs {
		out = append(out, tp.pkg.ImportPath)
	}
	return out
}

// limitOf is the limit on a test of the test binary named bin (binName)
// under capture: Config.testLimit of its time without capture.
func (m *moduleRun) limitOf(bin, test string) time.Duration {
	for _, tp := range m.testPkgs {
		if binName(tp.pkg.ImportPath) != bin {
			continue
		}
		for _, t := range tp.tests {
			if t.name == test {
				return m.r.cfg.testLimit(t.plain)
			}
		}
	}
	// A test the baseline did not list (it cannot be): the shortest limit.
	return m.r.cfg.testLimit(0)
}

// limitsTotal is the sum of every test's limit.
func (m *moduleRun) limitsTotal() time.Duration {
	var sum time.Duration
	for _, tp := range m.testPkgs {
		for _, t := range tp.tests {
			sum += m.r.cfg.testLimit(t.plain)
		}
	}
	return sum
}

func (m *moduleRun) plainPassed(pkg, test string) bool {
	for _, tp := range m.testPkgs {
		if tp.pkg.ImportPath == pkg {
			for _, t := range tp.tests {
				if t.name == test {
					return t.plainPassed
				}
			}
		}
	}
	return false
}

// study runs one observed set: capture, replay, speed, overhead, mutants.
func (m *moduleRun) study(index int, obs []string) *SetResult {
	start := time.Now()
	s := &SetResult{Observed: obs, Kind: "package"}
	if len(obs) > 1 {
		s.Kind = "set"
	}
	defer func() { s.Seconds = time.Since(start).Seconds() }()
	setDir := m.setDir(index)
	logDir := filepath.Join(setDir, "logs")
	observe := strings.Join(obs, ",")

	// Capture: the module's tests, one process and one log per test.
	// The kept test binaries are the ones the overhead measurement times.
	// Each test runs under its own limit (testWatch); the command as a
	// whole may take the study's -timeout for building plus every test's
	// limit.
	binDir := filepath.Join(setDir, "capture-bin")
	args := append([]string{"test", "-root", m.r.cfg.Root, "-observe", observe, "-logs", logDir, "-keep-binaries", binDir, "-max-log-bytes", m.r.cfg.MaxLogBytes}, m.sub.Patterns...)
	watch := newTestWatch(binDir, m.limitOf)
	stdout, stderr, code, err := m.r.commandFor(m.r.cfg.Timeout+m.limitsTotal(), m.dir, nil, m.r.cfg.Capture, args...).watched(watch.start)
	runs := parseCaptureTest(stdout, m.testPkgPaths())
	killed := map[string]time.Duration{} // binary and test -> limit
	for _, k := range watch.killedTests() {
		killed[k.bin+" "+k.test] = k.limit
	}
	if err != nil {
		s.Error = "capture test: " + err.Error()
		return s
	}
	if rej := rejection(stderr); len(rej) > 0 {
		for _, r := range rej {
			// Positions relative to the module, as a user reads them.
			s.Rejected = append(s.Rejected, strings.ReplaceAll(r, m.dir+string(filepath.Separator), ""))
		}
		return s
	}
	if len(runs) == 0 && code != 0 {
		s.Error = fmt.Sprintf("capture test exited with %d and ran no test:\n%s", code, tail(stderr, 30))
		return s
	}
	s.Tests = len(runs)
	for _, r := range testRejections(stdout) {
		s.TestsRejected = append(s.TestsRejected, strings.ReplaceAll(r, m.dir+string(filepath.Separator), ""))
	}
	byPkg := map[string][]string{}
	var pkgOrder []string
	testOf := map[string]testRun{}
	for _, t := range runs {
		if limit, ok := killed[binName(t.Package)+" "+t.Test]; ok && !t.Passed {
			// Neither a round trip nor a failure under capture: it ran
			// past its limit; its log lacks the end and is not kept.
			s.TimedOut = append(s.TimedOut, TimedOutTest{Test: t.Package + "." + t.Test, Limit: limit.Seconds()})
			_ = os.Remove(t.Log)
			continue
		}
		if !t.Passed && m.plainPassed(t.Package, t.Test) {
			s.CaptureFailed = append(s.CaptureFailed, t.Package+"."+t.Test)
		}
		fi, err := os.Stat(t.Log)
		if err != nil {
			continue // a test that failed before writing its log
		}
		s.Logs++
		if capped(t.Log) {
			// Not replayed: replay refuses a log without all its events.
			s.Capped = append(s.Capped, t.Package+"."+t.Test)
			s.CappedBytes += fi.Size()
			continue
		}
		s.LogBytes += fi.Size()
		// capture replay names its reports after the log's base name,
		// which repeats across packages (TestNew in two packages): replay
		// through links with unique names, all logs of the set at once.
		flat := filepath.Join(setDir, "flat", strings.ReplaceAll(t.Package, "/", "_")+"__"+filepath.Base(t.Log))
		if err := os.MkdirAll(filepath.Dir(flat), 0o755); err == nil && os.Symlink(t.Log, flat) == nil {
			t.Log = flat
		}
		if _, ok := byPkg[t.Package]; !ok {
			pkgOrder = append(pkgOrder, t.Package)
		}
		byPkg[t.Package] = append(byPkg[t.Package], t.Log)
		testOf[t.Log] = t
	}
	for _, pkg := range unbuilt(stderr, m.testPkgPaths()) {
		s.CaptureFailed = append(s.CaptureFailed, pkg+" (all tests: the test binary did not build under capture)")
	}
	if code != 0 {
		// Failing tests are counted above; anything else capture test
		// complains about (a package whose instrumented tests do not
		// build, say) is a tool fault.
		if msg := toolComplaints(stderr); msg != "" {
			s.addError(fmt.Sprintf("capture test exited with %d:\n%s", code, msg))
		}
	}

	// Replay every log with capture replay, one call per test package
	// (reports are named after the log's base name, which repeats across
	// packages).
	harness := filepath.Join(setDir, "replay-harness")
	eventsOf := map[string]int{}
	var passing []string // the logs that replay against the unchanged code
	var all []string
	for _, pkg := range pkgOrder {
		all = append(all, byPkg[pkg]...)
	}
	var outcomes []replayOutcome
	if len(all) > 0 {
		var err error
		outcomes, err = m.replay(observe, all, filepath.Join(setDir, "reports"), harness)
		if err != nil {
			// The harness does not build: every log of the set is a
			// round trip that failed, for the same reason.
			s.addError(err.Error())
			outcomes = nil
			for _, log := range all {
				outcomes = append(outcomes, replayOutcome{Log: log, Verdict: "error", Error: errorSummary(err.Error())})
			}
		}
	}
	for _, o := range outcomes {
		if cappedOutcome(o) {
			// capped (above) did not see the cap, replay did.
			s.Capped = append(s.Capped, testOf[o.Log].Package+"."+testOf[o.Log].Test)
			continue
		}
		s.Events += o.Events
		eventsOf[o.Log] = o.Events
		switch o.Verdict {
		case "pass":
			s.Passed++
			passing = append(passing, o.Log)
		case "diverged":
			s.Diverged++
		default:
			s.Errors++
		}
		if o.Verdict != "pass" {
			o.Log = testOf[o.Log].Package + "." + testOf[o.Log].Test
			s.Failures = append(s.Failures, o)
		}
	}
	if s.Events > 0 {
		s.BytesPerEvent = float64(s.LogBytes) / float64(s.Events)
	}

	// Replay speed: the kept harness on every log, timed.
	if _, err := os.Stat(harness); err == nil && s.Events > 0 {
		var total time.Duration
		for _, pkg := range pkgOrder {
			for _, log := range byPkg[pkg] {
				d, err := m.r.timeReplay(harness, log, filepath.Join(setDir, "speed.json"))
				if err != nil {
					continue
				}
				total += d
			}
		}
		s.ReplaySeconds = total.Seconds()
		if total > 0 {
			s.ReplayEventsPS = float64(s.Events) / total.Seconds()
		}
	}

	if m.r.cfg.Repeats > 0 && s.Events > 0 {
		ov, err := m.overhead(setDir, eventsOf, testOf)
		if err != nil {
			s.addError("overhead: " + err.Error())
		}
		s.Overhead = ov
	}
	if m.r.cfg.Mutants > 0 && len(obs) == 1 && s.Events > 0 {
		// Only logs that replay against the unchanged code can tell
		// whether a mutant changed behaviour.
		s.Mutation = m.mutation(obs[0], setDir, passing)
	}
	return s
}

// DefaultMaxLogBytes is the cap on each log that the study gives capture
// test (Config.MaxLogBytes), capture test's own default: a test that loops
// for minutes under capture (a performance test) can otherwise fill the
// disk with one log.
const DefaultMaxLogBytes = "256MiB"

// logLimit is the cap on each log in force: $CAPTURE_MAX_BYTES, which
// capture test lets win, or Config.MaxLogBytes ("0": none).
func (r *runner) logLimit() string {
	if v := os.Getenv(probectl.EnvMaxBytes); v != "" {
		return v
	}
	return r.cfg.MaxLogBytes
}

// capEnv caps the log of a capture run the study makes itself (the
// overhead's), as capture test caps its logs.
func (r *runner) capEnv() []string {
	if l := r.logLimit(); l != "0" && os.Getenv(probectl.EnvMaxBytes) == "" {
		return []string{probectl.EnvMaxBytes + "=" + l}
	}
	return nil
}

// capped reports whether the log at path reached its size cap: its status
// counts events lost to it (lost_why=size_cap). Such a log ends cleanly
// but lacks every event after the cap, and replay refuses it ("is
// incomplete"): the study reports it as its own outcome, neither a replay
// error nor a divergence, and does not replay it.
func capped(path string) bool {
	r, err := eventlog.Open(path)
	if err != nil {
		return false // replay says what is wrong with it
	}
	defer r.Close()
	return r.Meta().Status.LostWhy == "size_cap"
}

// cappedOutcome reports whether replay refused a log because events were
// lost to its size cap (probe's "N of them could not be written
// (size_cap, from ...)").
func cappedOutcome(o replayOutcome) bool {
	return o.Verdict == "error" && strings.Contains(o.Error, "(size_cap, ")
}

// toolComplaints returns the end of capture test's error output (the
// compiler's messages come before its own "capture test: ..." line) if it
// complained about something other than failing tests, or "".
func toolComplaints(stderr []byte) string {
	if !bytes.Contains(stderr, []byte("capture test: ")) {
		return ""
	}
	return tail(stderr, 30)
}

// replay runs capture replay on logs of one test package and reads the
// per-log reports.
func (m *moduleRun) replay(observe string, logs []string, reports, harness string) ([]replayOutcome, error) {
	args := []string{"replay", "-root", m.r.cfg.Root, "-observe", observe, "-reports", reports}
	if harness != "" {
		args = append(args, "-harness", harness)
	}
	args = append(args, logs...)
	stdout, stderr, code, err := m.r.command(m.dir, nil, m.r.cfg.Capture, args...).combined()
	if err != nil {
		return nil, fmt.Errorf("capture replay: %v", err)
	}
	if code != 0 && !bytes.Contains(stdout, []byte("PASS     ")) && !bytes.Contains(stdout, []byte("DIVERGED ")) && !bytes.Contains(stdout, []byte("ERROR    ")) {
		// No verdict at all: the harness did not build.
		if rej := rejection(stderr); len(rej) > 0 {
			return nil, fmt.Errorf("capture replay rejected the observed set: %s", strings.Join(rej, "; "))
		}
		return nil, fmt.Errorf("capture replay exited with %d before replaying:\n%s", code, tail(stderr, 30))
	}
	return readReports(reports, logs, stdout), nil
}

// timeReplay replays one log with the harness, in a fresh process with
// only the replay's settings in its environment (as capture replay does),
// and returns how long the child ran; a replay that does not pass is not
// timed.
func (r *runner) timeReplay(harness, log, report string) (time.Duration, error) {
	// Bounded like every other command: a replay that stalls for good
	// (golang-lru's expirable TestLRUConcurrency) must not stop the study.
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.Timeout)
	defer cancel()
	o, err := probectl.Run(ctx, probectl.Child{Harness: harness, Log: log, Check: probectl.CheckStrict, Report: report})
	if err != nil {
		return 0, err
	}
	if o.Report.Verdict != probectl.Pass {
		return 0, fmt.Errorf("replay of %s %s", log, o.Report.Verdict)
	}
	return o.Elapsed, nil
}

// addError records a tool fault of the set (several may occur: capture
// test can fail for one package and replay for another).
func (s *SetResult) addError(msg string) {
	if s.Error != "" {
		s.Error += "\n\n"
	}
	s.Error += msg
}

// unbuilt returns the test packages capture test could not build or list
// ("capture test: <pkg>: ..." lines).
func unbuilt(stderr []byte, testPkgs []string) []string {
	var out []string
	for _, line := range strings.Split(string(stderr), "\n") {
		rest, ok := strings.CutPrefix(line, "capture test: ")
		if !ok {
			continue
		}
		for _, p := range testPkgs {
			if strings.HasPrefix(rest, p+": ") && !containsString(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// setDir is the scratch directory of the observed set numbered index+1
// (its logs, test binaries and replay harness).
func (m *moduleRun) setDir(index int) string {
	return filepath.Join(m.base, fmt.Sprintf("set%03d", index))
}
