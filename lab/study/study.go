// Package study is the conformance study of rules_capture on real Go
// modules (SCARPE's feasibility study, for Go): for each package of a
// module, and a few random sets of packages, it runs the module's tests
// under capture with that observed set (`capture test`, one log per test),
// replays every log (`capture replay`), measures capture overhead, log size
// and replay speed, and checks with generated mutants whether replays
// notice behaviour changes that the module's own tests notice.
//
// The study drives the `capture` command as a user would, so it exercises
// the same front end, transform and runtime; only the overhead measurement
// builds the instrumented test binaries itself (through the same front-end
// library), because it needs to run them many times.
package study

import (
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"
)

// Config controls a study.
type Config struct {
	Capture     string        // the capture command whose test and replay subcommands are studied
	Root        string        // rules_capture's source tree (capture's -root)
	Work        string        // scratch directory (module copies, logs, binaries)
	Repeats     int           // timing repeats per test for the overhead; 0 skips the overhead
	Mutants     int           // mutants per observed package; 0 skips the mutation check
	Sets        int           // random observed sets of 2-3 packages per subject
	Seed        int64         // for the random sets and the mutants
	Packages    []string      // observe only these packages (import paths); default all
	MaxPackages int           // observe at most this many single packages per subject (0: all)
	OnlySets    []int         // study only these of the observed sets the other fields give (1-based, as the progress lines number them)
	Timeout     time.Duration // per external command
	// TestLimit and TestLimitFactor bound each test under capture:
	// max(TestLimit, TestLimitFactor × its time without capture); one
	// that runs longer is killed and reported as timed out (defaults:
	// DefaultTestLimit, DefaultTestLimitFactor).
	TestLimit       time.Duration
	TestLimitFactor float64
	MaxLogBytes     string    // capture test's -max-log-bytes ("": DefaultMaxLogBytes; "0": no cap)
	Verbose         bool      // print every command
	Log             io.Writer // progress lines; nil: none
	Out             string    // if set, the report is (re)written here after every observed set

	// dropSetScratch removes each observed set's scratch directory once
	// its result is recorded (RunEach, which keeps no scratch: a module's
	// sets would otherwise pile up their test binaries and harnesses,
	// most of a gigabyte each for expr).
	dropSetScratch bool
}

// Report is the result of a study: what -o writes as study.json, and as
// the tables of study.md (lab/README.md quotes the current ones).
type Report struct {
	Started   string  `json:"started"`
	Seconds   float64 `json:"seconds"`
	GoVersion string  `json:"go_version"`
	// Commit is the rules_capture commit the study (and so the capture it
	// runs) was built from, as the go command stamped it into the binary
	// ("+modified" when the tree had uncommitted changes; empty when built
	// outside a git checkout): a module's result is only comparable to
	// another at the same commit, and the first run of a module is the
	// one at a commit before any fix for it.
	Commit  string `json:"commit,omitempty"`
	Host    string `json:"host"`
	Seed    int64  `json:"seed"`
	Repeats int    `json:"repeats"`
	Mutants int    `json:"mutants_per_package"`
	// MaxLogBytes is the cap on each log in force ($CAPTURE_MAX_BYTES or
	// Config.MaxLogBytes; "0": none).
	MaxLogBytes string `json:"max_log_bytes"`
	// TestLimit (seconds) and TestLimitFactor are the limit on each test
	// under capture: the larger of TestLimit and TestLimitFactor × the
	// test's time without capture.
	TestLimit       float64 `json:"test_limit_s"`
	TestLimitFactor float64 `json:"test_limit_factor"`
	// Selection is the rest of what chose the observed sets and bounded
	// each command; with the fields above and Commit it is what a run
	// must repeat to continue an unfinished study (RunEach).
	Selection *Selection       `json:"selection,omitempty"`
	Subjects  []*SubjectResult `json:"subjects"`
	Totals    Totals           `json:"totals"`
	// Finished is set once every subject was studied; a report that an
	// interrupted study checkpointed lacks it.
	Finished bool `json:"finished"`
}

// Selection is the part of Config that chooses a module's observed sets
// and bounds each command, recorded in the report.
type Selection struct {
	RandomSets  int      `json:"random_sets"`
	MaxPackages int      `json:"max_packages"`
	Packages    []string `json:"packages,omitempty"`
	OnlySets    []int    `json:"only_sets,omitempty"`
	Timeout     float64  `json:"timeout_s"`
}

// SubjectResult is the study of one module.
type SubjectResult struct {
	Subject      Subject      `json:"subject"`
	Error        string       `json:"error,omitempty"` // the module could not be prepared
	TestPackages int          `json:"test_packages"`
	Tests        int          `json:"tests"`
	PlainFailing []string     `json:"plain_failing,omitempty"` // tests that fail without capture (excluded from faults)
	Sets         []*SetResult `json:"sets"`
	Totals       Totals       `json:"totals"`
	Seconds      float64      `json:"seconds"`
}

// SetResult is one observed set of one module.
type SetResult struct {
	Observed       []string        `json:"observed"`
	Kind           string          `json:"kind"`                     // "package" or "set"
	Rejected       []string        `json:"rejected,omitempty"`       // up-front rejections by the transform
	Error          string          `json:"error,omitempty"`          // capture test could not run: a tool fault
	Tests          int             `json:"tests"`                    // tests run under capture
	TestsRejected  []string        `json:"tests_rejected,omitempty"` // "<pkg>.<Test>: reason": not run, rejected up front by capture test
	CaptureFailed  []string        `json:"capture_failed,omitempty"`
	TimedOut       []TimedOutTest  `json:"timed_out,omitempty"` // killed at their limit under capture: no round trip
	Logs           int             `json:"logs"`                // every log, capped ones included
	Events         int             `json:"events"`              // events of the replayed logs
	LogBytes       int64           `json:"log_bytes"`           // bytes of the replayed logs (capped ones: CappedBytes)
	Passed         int             `json:"passed"`
	Diverged       int             `json:"diverged"`
	Errors         int             `json:"errors"`
	Capped         []string        `json:"capped,omitempty"` // "<pkg>.<Test>": logs that reached capture test's size cap, not replayed
	CappedBytes    int64           `json:"capped_bytes,omitempty"`
	Failures       []replayOutcome `json:"failures,omitempty"` // diverged and error outcomes
	BytesPerEvent  float64         `json:"bytes_per_event"`
	ReplayEventsPS float64         `json:"replay_events_per_second"`
	ReplaySeconds  float64         `json:"replay_seconds"`
	Overhead       *Overhead       `json:"overhead,omitempty"`
	Mutation       *Mutation       `json:"mutation,omitempty"`
	Seconds        float64         `json:"seconds"`
}

// TimedOutTest is a test that ran past its limit under capture.
type TimedOutTest struct {
	Test  string  `json:"test"`    // <pkg>.<Test>
	Limit float64 `json:"limit_s"` // its limit, in seconds
}

// Totals sums sets.
type Totals struct {
	Sets          int   `json:"sets"`
	Rejected      int   `json:"rejected_sets"`
	ToolErrors    int   `json:"tool_errors"`
	Tests         int   `json:"tests"`
	TestsRejected int   `json:"tests_rejected"`
	CaptureFailed int   `json:"capture_failed"`
	TimedOut      int   `json:"timed_out"`
	Logs          int   `json:"logs"`
	Events        int   `json:"events"`
	LogBytes      int64 `json:"log_bytes"`
	Passed        int   `json:"passed"`
	Diverged      int   `json:"diverged"`
	Errors        int   `json:"errors"`
	Capped        int   `json:"capped"`
	Mutants       int   `json:"mutants"`
	ByReplay      int   `json:"mutants_detected_by_replay"`
	ByTests       int   `json:"mutants_detected_by_tests"`
}

func (t *Totals) add(s *SetResult) {
	t.Sets++
	if len(s.Rejected) > 0 {
		t.Rejected++
	}
	if s.Error != "" {
		t.ToolErrors++
	}
	t.Tests += s.Tests
	t.TestsRejected += len(s.TestsRejected)
	t.CaptureFailed += len(s.CaptureFailed)
	t.TimedOut += len(s.TimedOut)
	t.Logs += s.Logs
	t.Events += s.Events
	t.LogBytes += s.LogBytes
	t.Passed += s.Passed
	t.Diverged += s.Diverged
	t.Errors += s.Errors
	t.Capped += len(s.Capped)
	if m := s.Mutation; m != nil {
		t.Mutants += m.Kept
		t.ByReplay += m.ByReplay
		t.ByTests += m.ByTests
	}
}

func (t *Totals) merge(o Totals) {
	t.Sets += o.Sets
	t.Rejected += o.Rejected
	t.ToolErrors += o.ToolErrors
	t.Tests += o.Tests
	t.TestsRejected += o.TestsRejected
	t.CaptureFailed += o.CaptureFailed
	t.TimedOut += o.TimedOut
	t.Logs += o.Logs
	t.Events += o.Events
	t.LogBytes += o.LogBytes
	t.Passed += o.Passed
	t.Diverged += o.Diverged
	t.Errors += o.Errors
	t.Capped += o.Capped
	t.Mutants += o.Mutants
	t.ByReplay += o.ByReplay
	t.ByTests += o.ByTests
}

type runner struct {
	cfg    Config
	report *Report
	start  time.Time
}

// checkpoint recomputes the totals and, with Config.Out, writes the report
// so far: a long study that is interrupted still leaves its numbers.
func (r *runner) checkpoint() {
	rep := r.report
	rep.Totals = Totals{}
	for _, s := range rep.Subjects {
		rep.Totals.merge(s.Totals)
	}
	rep.Seconds = time.Since(r.start).Seconds()
	if r.cfg.Out != "" {
		if err := rep.Write(r.cfg.Out); err != nil {
			r.logf("writing the report: %v", err)
		}
	}
}

func (r *runner) logf(format string, args ...any) {
	if r.cfg.Log != nil {
		fmt.Fprintf(r.cfg.Log, "study: "+format+"\n", args...)
	}
}

// Run studies each subject in turn.
func Run(cfg Config, subjects []Subject) (*Report, error) {
	return run(cfg, subjects, nil)
}

// defaults fills in the Config fields left zero.
func (cfg Config) defaults() Config {
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Minute
	}
	if cfg.MaxLogBytes == "" {
		cfg.MaxLogBytes = DefaultMaxLogBytes
	}
	if cfg.TestLimit <= 0 {
		cfg.TestLimit = DefaultTestLimit
	}
	if cfg.TestLimitFactor <= 0 {
		cfg.TestLimitFactor = DefaultTestLimitFactor
	}
	return cfg
}

// header is the report a study with cfg starts from: when and how it
// runs, no results yet.
func (cfg Config) header(start time.Time) *Report {
	rep := &Report{Started: start.UTC().Format(time.RFC3339), GoVersion: runtime.Version(), Commit: studyCommit(), Host: fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU()),
		Seed: cfg.Seed, Repeats: cfg.Repeats, Mutants: cfg.Mutants, TestLimit: cfg.TestLimit.Seconds(), TestLimitFactor: cfg.TestLimitFactor,
		Selection: &Selection{RandomSets: cfg.Sets, MaxPackages: cfg.MaxPackages, Packages: cfg.Packages, OnlySets: cfg.OnlySets, Timeout: cfg.Timeout.Seconds()}}
	rep.MaxLogBytes = (&runner{cfg: cfg}).logLimit()
	return rep
}

// run studies each subject in turn; prev, if set, is an unfinished study
// of the one subject that this run continues (its sets are kept, the
// others studied).
func run(cfg Config, subjects []Subject, prev *Report) (*Report, error) {
	if cfg.Capture == "" || cfg.Root == "" || cfg.Work == "" {
		return nil, fmt.Errorf("study: Capture, Root and Work must be set")
	}
	cfg = cfg.defaults()
	if err := os.MkdirAll(cfg.Work, 0o755); err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg}
	start := time.Now()
	rep := cfg.header(start)
	r.report = rep
	r.start = start
	var before *SubjectResult
	if prev != nil {
		// The study goes on where prev stopped: its start, its time so
		// far, and the sets it finished.
		rep.Started = prev.Started
		r.start = start.Add(-time.Duration(prev.Seconds * float64(time.Second)))
		before = prev.Subjects[0]
	}
	for _, sub := range subjects {
		res := &SubjectResult{Subject: sub}
		rep.Subjects = append(rep.Subjects, res)
		r.subject(res, before)
	}
	rep.Finished = true
	r.checkpoint()
	return rep, nil
}

// subject studies one subject into res; before, if set, is this subject's
// result from an unfinished study, whose sets are kept, not studied again.
func (r *runner) subject(res *SubjectResult, before *SubjectResult) {
	sub := res.Subject
	start := time.Now()
	if before != nil {
		start = start.Add(-time.Duration(before.Seconds * float64(time.Second)))
	}
	defer func() { res.Seconds = time.Since(start).Seconds() }()
	if len(sub.Patterns) == 0 {
		sub.Patterns = []string{"./..."}
		res.Subject.Patterns = sub.Patterns
	}
	base := filepath.Join(r.cfg.Work, sub.Name)
	if err := os.RemoveAll(base); err != nil {
		res.Error = err.Error()
		return
	}
	dir := filepath.Join(base, "module")
	r.logf("%s: preparing %s", sub.Name, sub.Module+at(sub.Version))
	if err := r.prepare(sub, dir); err != nil {
		res.Error = err.Error()
		return
	}
	m := &moduleRun{r: r, sub: sub, dir: dir, base: base}
	if err := m.baseline(); err != nil {
		res.Error = err.Error()
		return
	}
	res.TestPackages = len(m.testPkgs)
	for _, tp := range m.testPkgs {
		res.Tests += len(tp.tests)
		for _, t := range tp.tests {
			if !t.plainPassed {
				res.PlainFailing = append(res.PlainFailing, tp.pkg.ImportPath+"."+t.name)
			}
		}
	}
	cands := m.candidates()
	if len(cands) == 0 {
		res.Error = "no package to observe (none of the given packages has Go files)"
		return
	}
	sets, all := r.cfg.observedSets(cands)
	done := doneSets(sets, before)
	if len(done) > 0 {
		r.logf("%s: continuing an unfinished study: %d of its %d observed sets are done", sub.Name, len(done), len(sets))
	}
	for _, set := range sets {
		i, obs := set.n-1, set.observed
		if s, ok := done[set.n]; ok {
			res.Sets = append(res.Sets, s)
			res.Totals.add(s)
			continue
		}
		r.logf("%s: observed set %d/%d: %s", sub.Name, set.n, all, strings.Join(obs, ","))
		s := m.study(i, obs)
		r.logf("%s:   %d tests, %d logs, %d events: %d passed, %d diverged, %d errors%s", sub.Name, s.Tests, s.Logs, s.Events, s.Passed, s.Diverged, s.Errors, setNote(s))
		res.Sets = append(res.Sets, s)
		res.Totals.add(s)
		res.Seconds = time.Since(start).Seconds()
		r.checkpoint()
		if r.cfg.dropSetScratch {
			if err := os.RemoveAll(m.setDir(i)); err != nil {
				r.logf("%s: removing the scratch of observed set %d: %v", sub.Name, set.n, err)
			}
		}
	}
}

// doneSets are the results an unfinished study of the same subject with
// the same flags (before) has of sets, by their number.
func doneSets(sets []numberedSet, before *SubjectResult) map[int]*SetResult {
	if before == nil {
		return nil
	}
	byObserved := map[string]*SetResult{}
	for _, s := range before.Sets {
		byObserved[strings.Join(s.Observed, ",")] = s
	}
	done := map[int]*SetResult{}
	for _, set := range sets {
		if s, ok := byObserved[strings.Join(set.observed, ",")]; ok {
			done[set.n] = s
		}
	}
	return done
}

// numberedSet is an observed set and its number among a subject's sets
// (1-based; its scratch directory is set<n-1>).
type numberedSet struct {
	n        int
	observed []string
}

// observedSets are the sets the study observes among candidates cands:
// each package alone (at most MaxPackages), then Sets random sets; only
// those OnlySets names if it is set, numbered as without it. all is the
// number of sets without OnlySets.
func (cfg Config) observedSets(cands []string) (sets []numberedSet, all int) {
	singles := cands
	if cfg.MaxPackages > 0 && len(singles) > cfg.MaxPackages {
		singles = singles[:cfg.MaxPackages]
	}
	var every [][]string
	for _, p := range singles {
		every = append(every, []string{p})
	}
	every = append(every, randomSets(cands, cfg.Sets, cfg.Seed)...)
	for i, obs := range every {
		if len(cfg.OnlySets) == 0 || slices.Contains(cfg.OnlySets, i+1) {
			sets = append(sets, numberedSet{i + 1, obs})
		}
	}
	return sets, len(every)
}

func at(v string) string {
	if v == "" {
		return ""
	}
	return "@" + v
}

func setNote(s *SetResult) string {
	var n []string
	if len(s.Rejected) > 0 {
		n = append(n, "rejected: "+s.Rejected[0])
	}
	if s.Error != "" {
		n = append(n, "ERROR: "+firstLine(s.Error))
	}
	if len(s.CaptureFailed) > 0 {
		n = append(n, fmt.Sprintf("%d tests failed only under capture", len(s.CaptureFailed)))
	}
	if len(s.TimedOut) > 0 {
		n = append(n, fmt.Sprintf("%d tests ran past their limit", len(s.TimedOut)))
	}
	if o := s.Overhead; o != nil {
		n = append(n, fmt.Sprintf("overhead median x%.2f worst x%.2f", o.MedianRatio, o.WorstRatio))
	}
	if m := s.Mutation; m != nil {
		n = append(n, fmt.Sprintf("mutants %d: replay %d, tests %d", m.Kept, m.ByReplay, m.ByTests))
	}
	if len(n) == 0 {
		return ""
	}
	return "; " + strings.Join(n, "; ")
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// randomSets draws n distinct sets of 2 or 3 packages from cands,
// deterministically from seed.
func randomSets(cands []string, n int, seed int64) [][]string {
	if len(cands) < 2 {
		return nil
	}
	rng := rand.New(rand.NewSource(seed))
	seen := map[string]bool{}
	var out [][]string
	for tries := 0; len(out) < n && tries < 100*n; tries++ {
		k := 2 + rng.Intn(2)
		if k > len(cands) {
			k = len(cands)
		}
		perm := rng.Perm(len(cands))[:k]
		set := make([]string, k)
		for i, j := range perm {
			set[i] = cands[j]
		}
		sort.Strings(set)
		key := strings.Join(set, ",")
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, set)
	}
	return out
}

// Clean reports whether every round trip passed (or was rejected up front
// by the transform) and no tool error occurred.
func (rep *Report) Clean() bool {
	t := rep.Totals
	for _, s := range rep.Subjects {
		if s.Error != "" {
			return false
		}
	}
	return t.ToolErrors == 0 && t.Diverged == 0 && t.Errors == 0 && t.CaptureFailed == 0
}

// studyCommit is the commit the study records: buildCommit, or in tests
// a fixed one.
var studyCommit = buildCommit

// buildCommit is the VCS revision the go command stamped into this binary
// (its first 12 hex digits), with "+modified" if the tree had uncommitted
// changes, or "" if it was built without VCS information (outside a git
// checkout, or with -buildvcs=false).
func buildCommit() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return commitOf(info.Settings)
}

func commitOf(settings []debug.BuildSetting) string {
	var rev string
	modified := false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return ""
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified {
		rev += "+modified"
	}
	return rev
}
