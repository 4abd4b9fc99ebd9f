package study

import (
	"bufio"
	"bytes"
	"encoding/json"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/rules-capture/rules_capture/lab/mutate"
)

// Mutation is the mutation check of one observed package: generated
// mutants of its non-test files, each judged by replaying the logs
// captured from the unchanged code and by the module's own tests.
type Mutation struct {
	Candidates int             `json:"candidates"` // mutants the generator found in the package
	Logs       int             `json:"logs"`       // logs replayed per mutant: those that pass on the unchanged code
	Stillborn  int             `json:"stillborn"`  // picked but did not compile (skipped)
	Kept       int             `json:"kept"`
	ByReplay   int             `json:"by_replay"` // a replay diverged (or could not replay)
	ByTests    int             `json:"by_tests"`  // a test that passes on the unchanged code failed
	Both       int             `json:"both"`
	Neither    int             `json:"neither"`
	Mutants    []MutantOutcome `json:"mutants"`
}

// MutantOutcome is one mutant's verdicts.
type MutantOutcome struct {
	mutate.Mutant
	ByReplay bool `json:"by_replay"`
	ByTests  bool `json:"by_tests"`
	Diverged int  `json:"logs_diverged"`
	// FailedTests are the failures that count for ByTests: tests that
	// pass on the unchanged code without capture (the baseline) and fail
	// on the mutant, as pkg.Test, or "pkg (package)" for a package that
	// failed without a failed test (it did not build, TestMain or a
	// panic outside a test) and has a passing test in the baseline.
	FailedTests []string `json:"failed_tests,omitempty"`
	// Unconfirmed are tests that failed in the module's run on the mutant
	// but not when run again alone: passed on the mutant, or failed on the
	// unchanged code too (a timing test on a loaded machine). They do not
	// count for ByTests (confirmFailures).
	Unconfirmed []string `json:"unconfirmed_tests,omitempty"`
	ReplayNote  string   `json:"replay_note,omitempty"` // first divergence or replay error
	Error       string   `json:"error,omitempty"`
}

func (m *moduleRun) mutation(pkg string, setDir string, logs []string) *Mutation {
	res := &Mutation{Logs: len(logs)}
	if res.Logs == 0 {
		return res
	}
	var lp *listedPackage
	for i := range m.pkgs {
		if m.pkgs[i].ImportPath == pkg {
			lp = &m.pkgs[i]
		}
	}
	if lp == nil {
		return res
	}
	var cands []mutate.Mutant
	srcs := map[string][]byte{}
	for _, name := range lp.GoFiles {
		path := filepath.Join(lp.Dir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		srcs[path] = src
		c, err := mutate.Candidates(path, src)
		if err != nil {
			continue
		}
		cands = append(cands, c...)
	}
	res.Candidates = len(cands)
	h := fnv.New64a()
	h.Write([]byte(pkg))
	picked := mutate.Pick(cands, 5*m.r.cfg.Mutants, m.r.cfg.Seed^int64(h.Sum64()))
	for _, mu := range picked {
		if res.Kept == m.r.cfg.Mutants {
			break
		}
		o, compiled := m.judge(mu, srcs[mu.File], lp.ImportPath, setDir, logs)
		if !compiled {
			res.Stillborn++
			continue
		}
		res.Kept++
		if o.ByReplay {
			res.ByReplay++
		}
		if o.ByTests {
			res.ByTests++
		}
		switch {
		case o.ByReplay && o.ByTests:
			res.Both++
		case !o.ByReplay && !o.ByTests:
			res.Neither++
		}
		m.r.logf("%s:   mutant %s: replay %v, tests %v%s%s", m.sub.Name, mu, o.ByReplay, o.ByTests, noteOf(o), unconfirmedOf(o))
		res.Mutants = append(res.Mutants, o)
	}
	return res
}

func unconfirmedOf(o MutantOutcome) string {
	if len(o.Unconfirmed) == 0 {
		return ""
	}
	return " (not counted, did not fail again alone: " + strings.Join(o.Unconfirmed, ", ") + ")"
}

func noteOf(o MutantOutcome) string {
	if o.ReplayNote == "" {
		return ""
	}
	return " (" + firstLine(o.ReplayNote) + ")"
}

// judge applies one mutant, and if it compiles runs the module's tests and
// replays the set's logs against it; the original file is always restored.
func (m *moduleRun) judge(mu mutate.Mutant, orig []byte, pkg string, setDir string, logs []string) (MutantOutcome, bool) {
	o := MutantOutcome{Mutant: mu}
	mutated, err := mu.Apply(orig)
	if err != nil {
		o.Error = err.Error()
		return o, false
	}
	if err := os.WriteFile(mu.File, mutated, 0o644); err != nil {
		o.Error = err.Error()
		return o, false
	}
	defer os.WriteFile(mu.File, orig, 0o644)
	// Mutants change no declaration, so if the package compiles its
	// tests do too.
	if _, err := m.r.command(m.dir, nil, "go", "build", pkg).output(); err != nil {
		return o, false
	}
	stdout, _, code, err := m.r.command(m.dir, nil, "go", append([]string{"test", "-json", "-count=1", "-timeout=" + m.mutantTestLimit().String()}, m.sub.Patterns...)...).combined()
	switch {
	case err != nil:
		// go test did not finish (the study's timeout): the mutant hangs
		// the tests.
		o.ByTests = true
		o.FailedTests = []string{"go test: " + firstLine(err.Error())}
	case code != 0:
		o.FailedTests = caughtByTests(stdout, m.passedWithoutCapture)
	}
	// Each failed test runs again alone on the mutant now, and on the
	// unchanged code after the replay: a test counts only if it fails both
	// times on the mutant and passes on the unchanged code.
	failedAgain := m.failingAlone(o.FailedTests)
	outcomes, err := m.replay(pkg, logs, filepath.Join(setDir, "mutant-reports"), "")
	if err != nil {
		// The mutant's harness did not build or the replay tool failed:
		// the mutant is noticed, but say how.
		o.ByReplay = true
		o.ReplayNote = "replay failed: " + errorSummary(err.Error())
	}
	for _, out := range outcomes {
		if out.Verdict != "pass" {
			o.ByReplay = true
			o.Diverged++
			if o.ReplayNote == "" {
				if out.Divergence != nil {
					o.ReplayNote = out.Divergence.Reason + " at " + out.Divergence.Pos
				} else {
					o.ReplayNote = out.Verdict + ": " + out.Error
				}
			}
		}
	}
	if len(o.FailedTests) > 0 && !strings.HasPrefix(o.FailedTests[0], "go test: ") {
		os.WriteFile(mu.File, orig, 0o644)
		o.FailedTests, o.Unconfirmed = confirmFailures(o.FailedTests, failedAgain, m.failingAlone(o.FailedTests))
	}
	o.ByTests = len(o.FailedTests) > 0
	return o, true
}

// confirmFailures keeps the failures of the module's run on a mutant that
// failed again alone on the mutant (again) and did not fail alone on the
// unchanged code (orig); the others are returned as unconfirmed. A
// package's failure ("pkg (package)": a test binary that does not build, a
// panic outside a test) is kept as it is: a mutant's compile error or
// crash does not come and go with the machine's load.
func confirmFailures(failed []string, again, orig map[string]bool) (kept, unconfirmed []string) {
	for _, f := range failed {
		if strings.HasSuffix(f, " (package)") || again[f] && !orig[f] {
			kept = append(kept, f)
		} else {
			unconfirmed = append(unconfirmed, f)
		}
	}
	return kept, unconfirmed
}

// failingAlone runs the given failed tests (pkg.Test, as caughtByTests
// names them) again, each package's alone, and returns those that failed.
// Package failures and a run that did not finish are not run again.
func (m *moduleRun) failingAlone(failed []string) map[string]bool {
	byPkg := map[string][]string{}
	var pkgs []string
	for _, f := range failed {
		if strings.HasSuffix(f, " (package)") || strings.HasPrefix(f, "go test: ") {
			continue
		}
		i := strings.LastIndex(f, ".")
		if i < 0 {
			continue
		}
		pkg, test := f[:i], f[i+1:]
		if byPkg[pkg] == nil {
			pkgs = append(pkgs, pkg)
		}
		byPkg[pkg] = append(byPkg[pkg], test)
	}
	res := map[string]bool{}
	for _, pkg := range pkgs {
		var names []string
		for _, t := range byPkg[pkg] {
			names = append(names, regexp.QuoteMeta(t))
		}
		run := "^(" + strings.Join(names, "|") + ")$"
		stdout, _, _, err := m.r.command(m.dir, nil, "go", "test", "-json", "-count=1", "-p=1", "-run", run, "-timeout="+m.mutantTestLimit().String(), pkg).combined()
		if err != nil {
			// Did not finish within the study's timeout: as a hang, a failure.
			for _, t := range byPkg[pkg] {
				res[pkg+"."+t] = true
			}
			continue
		}
		for _, f := range caughtByTests(stdout, func(string, string) bool { return true }) {
			res[f] = true
		}
	}
	return res
}

// mutantTestLimit is go test's -timeout for the module's tests on a
// mutant: the per-test limit (Config.testLimit) of the slowest package's
// tests together without capture. A mutant that turns a loop endless
// hangs its package's tests, and go test then fails the running test,
// which catches the mutant as a fixed five minutes did, only without
// spending them on every such mutant.
func (m *moduleRun) mutantTestLimit() time.Duration {
	var slowest time.Duration
	for _, tp := range m.testPkgs {
		var sum time.Duration
		for _, t := range tp.tests {
			sum += t.plain
		}
		slowest = max(slowest, sum)
	}
	return m.r.cfg.testLimit(slowest)
}

// passedWithoutCapture reports whether test of pkg passed in the baseline
// (the unchanged code, without capture), or for test "" whether any test
// of pkg did.
func (m *moduleRun) passedWithoutCapture(pkg, test string) bool {
	if test != "" {
		return m.plainPassed(pkg, test)
	}
	for _, tp := range m.testPkgs {
		if tp.pkg.ImportPath == pkg {
			for _, t := range tp.tests {
				if t.plainPassed {
					return true
				}
			}
		}
	}
	return false
}

// caughtByTests reads the `go test -json` output of the module's tests on
// a mutant and returns the failures that count as the tests catching it:
// top-level tests (a subtest's failure is its parent's) that failed and
// that passed (reports) on the unchanged code without capture, as
// pkg.Test; and a package that failed with no failed test of its own (its
// test binary did not build, TestMain failed, a panic outside a test) if
// any of its tests passed, as "pkg (package)". A test that fails on the
// unchanged code already is not the mutant's doing and never counts.
func caughtByTests(out []byte, passed func(pkg, test string) bool) []string {
	type event struct{ Action, Package, Test string }
	var caught []string
	seen := map[string]bool{}
	testFailed := map[string]bool{} // packages with a failed test
	var pkgFailed []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Action != "fail" || e.Package == "" {
			continue
		}
		if e.Test == "" {
			pkgFailed = append(pkgFailed, e.Package)
			continue
		}
		testFailed[e.Package] = true
		top, _, _ := strings.Cut(e.Test, "/")
		key := e.Package + "." + top
		if !seen[key] && passed(e.Package, top) {
			seen[key] = true
			caught = append(caught, key)
		}
	}
	for _, pkg := range pkgFailed {
		if !testFailed[pkg] && passed(pkg, "") {
			caught = append(caught, pkg+" (package)")
		}
	}
	return caught
}
