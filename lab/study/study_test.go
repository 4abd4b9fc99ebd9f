package study

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probe"
)

func TestParseCaptureTestSplitsPackageAndTestAtTheKnownPackage(t *testing.T) {
	out := []byte(`ok   github.com/Masterminds/semver/v3.TestNew -> /l/a/TestNew.arrow
FAIL example.com/m/p.TestX (log /l/b/TestX.arrow)
--- FAIL: TestX (0.00s)
    x_test.go:9: boom
ok   example.com/m/p/q.TestY -> /l/c/TestY.arrow
some other line
`)
	got := parseCaptureTest(out, []string{"github.com/Masterminds/semver/v3", "example.com/m/p", "example.com/m/p/q"})
	want := []testRun{
		{Package: "github.com/Masterminds/semver/v3", Test: "TestNew", Log: "/l/a/TestNew.arrow", Passed: true},
		{Package: "example.com/m/p", Test: "TestX", Log: "/l/b/TestX.arrow"},
		{Package: "example.com/m/p/q", Test: "TestY", Log: "/l/c/TestY.arrow", Passed: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestReadReportsTurnsMissingAndErrorReportsIntoErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(log string, r probe.Report) {
		b, _ := json.Marshal(r)
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(log)+".json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("/l/A.arrow", probe.Report{Verdict: "pass", Events: 7})
	write("/l/B.arrow", probe.Report{Verdict: "diverged", Events: 9, Divergence: &probe.Divergence{Seq: 3, Reason: "different results"}})
	write("/l/D.arrow", probe.Report{Verdict: "error", Notes: []string{"log truncated"}})
	stdout := []byte("PASS     /l/A.arrow (7 events)\nDIVERGED /l/B.arrow\nERROR    /l/C.arrow: the harness wrote no report (exit 2):\npanic: boom\nERROR    /l/D.arrow: [log truncated]\n")
	got := readReports(dir, []string{"/l/A.arrow", "/l/B.arrow", "/l/C.arrow", "/l/D.arrow"}, stdout)
	if len(got) != 4 {
		t.Fatalf("got %d outcomes", len(got))
	}
	if got[0].Verdict != "pass" || got[0].Events != 7 {
		t.Errorf("A: %+v", got[0])
	}
	if got[1].Verdict != "diverged" || got[1].Divergence == nil || got[1].Divergence.Seq != 3 {
		t.Errorf("B: %+v", got[1])
	}
	if got[2].Verdict != "error" || !strings.Contains(got[2].Error, "panic: boom") {
		t.Errorf("C (no report): %+v", got[2])
	}
	if got[3].Verdict != "error" || got[3].Error != "log truncated" {
		t.Errorf("D (error report): %+v", got[3])
	}
}

func TestRejectionPicksTheTransformsMessages(t *testing.T) {
	stderr := []byte("capture test: /m/cmp/compare.go:207:41: a method call on a value of type filtered declared inside a function is not supported in an observed package: call it from an unobserved package\nother\n")
	got := rejection(stderr)
	if len(got) != 1 || !strings.HasPrefix(got[0], "/m/cmp/compare.go:207:41: a method call") {
		t.Errorf("rejection = %q", got)
	}
	if rejection([]byte("# pkg\nx.go:3: imported and not used\n")) != nil {
		t.Error("a compile error is not a rejection")
	}
}

// TestTestRejectionsAreNotSetRejections: capture test's per-test
// rejections (stdout) are read as rejected tests, and do not make the
// observed set rejected (stderr's messages do).
func TestTestRejectionsAreNotSetRejections(t *testing.T) {
	stdout := []byte("rejected github.com/gorilla/mux.TestUseEncodedPath: /m/mux_test.go:1885:13: a test writing the unexported field useEncodedPath of an observed github.com/gorilla/mux.Route is not supported in an observed package: set it through the package's API\nok   github.com/gorilla/mux.TestHost -> /l/TestHost.arrow\n")
	got := testRejections(stdout)
	if len(got) != 1 || !strings.HasPrefix(got[0], "github.com/gorilla/mux.TestUseEncodedPath: /m/mux_test.go:1885:13: a test writing") {
		t.Errorf("testRejections = %q", got)
	}
	if runs := parseCaptureTest(stdout, []string{"github.com/gorilla/mux"}); len(runs) != 1 || runs[0].Test != "TestHost" {
		t.Errorf("parseCaptureTest = %+v", runs)
	}
	if rejection(nil) != nil {
		t.Error("no stderr, no set rejection")
	}
}

func TestUnbuiltNamesThePackagesCaptureTestCouldNotBuild(t *testing.T) {
	stderr := []byte("# example.com/m/diff\ndiff.go:19: \"example.com/m/flags\" imported and not used\ncapture test: example.com/m/value: go test: exit status 1\ncapture test: example.com/m: go test: exit status 1\n")
	got := unbuilt(stderr, []string{"example.com/m", "example.com/m/value", "example.com/m/other"})
	if want := []string{"example.com/m/value", "example.com/m"}; !reflect.DeepEqual(got, want) {
		t.Errorf("unbuilt = %q, want %q", got, want)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestRandomSetsAreDistinctSmallAndReproducible(t *testing.T) {
	cands := []string{"a", "b", "c", "d", "e"}
	sets := randomSets(cands, 6, 7)
	if len(sets) != 6 {
		t.Fatalf("got %d sets", len(sets))
	}
	seen := map[string]bool{}
	for _, s := range sets {
		if len(s) < 2 || len(s) > 3 {
			t.Errorf("set of %d: %v", len(s), s)
		}
		k := strings.Join(s, ",")
		if seen[k] {
			t.Errorf("duplicate set %v", s)
		}
		seen[k] = true
	}
	if !reflect.DeepEqual(sets, randomSets(cands, 6, 7)) {
		t.Error("same seed, different sets")
	}
	if randomSets([]string{"a"}, 3, 1) != nil {
		t.Error("sets from one package")
	}
	if got := randomSets([]string{"a", "b"}, 5, 1); len(got) != 1 {
		t.Errorf("two packages have one set of 2, got %v", got)
	}
}

// -only-sets re-runs a few sets of an earlier run: the sets it names must be
// those the run numbered so, with the same packages (same seed).
func TestOnlySetsKeepTheRunsNumbering(t *testing.T) {
	cands := []string{"a", "b", "c", "d", "e"}
	cfg := Config{MaxPackages: 1, Sets: 6, Seed: 7}
	every, all := cfg.observedSets(cands)
	if all != 7 || len(every) != 7 || every[0].n != 1 || !reflect.DeepEqual(every[0].observed, []string{"a"}) {
		t.Fatalf("without -only-sets: %d of %d: %+v", len(every), all, every)
	}
	cfg.OnlySets = []int{5, 2}
	got, all := cfg.observedSets(cands)
	if all != 7 || !reflect.DeepEqual(got, []numberedSet{every[1], every[4]}) {
		t.Errorf("-only-sets 5,2: got %+v of %d, want %+v", got, all, []numberedSet{every[1], every[4]})
	}
}

func TestErrorSummaryFindsTheCompilerMessage(t *testing.T) {
	msg := "capture test exited with 1:\n# example.com/p\n/tmp/capture-1/src/example.com_p/zz_capture_gen.go:7:2: \"iter\" imported and not used\ncapture test: example.com/p: go test: exit status 1"
	if got, want := errorSummary(msg), `capture test exited with 1: zz_capture_gen.go:7:2: "iter" imported and not used`; got != want {
		t.Errorf("errorSummary = %q, want %q", got, want)
	}
}

func TestParseSubject(t *testing.T) {
	s, err := ParseSubject("github.com/Masterminds/semver/v3@v3.4.0")
	if err != nil || s.Name != "semver" || s.Module != "github.com/Masterminds/semver/v3" || s.Version != "v3.4.0" {
		t.Errorf("ParseSubject = %+v, %v", s, err)
	}
	if _, err := ParseSubject("github.com/x/y@"); err == nil {
		t.Error("empty version accepted")
	}
	if _, err := ParseSubject(t.TempDir()); err == nil || !strings.Contains(err.Error(), "module@version") {
		t.Errorf("directory without go.mod: %v", err)
	}
	s, err = ParseSubject("testdata/mini")
	if err != nil || s.Module != "example.com/mini" || s.LocalDir == "" {
		t.Errorf("ParseSubject(dir) = %+v, %v", s, err)
	}
}

// TestStudyOfMiniModule runs the whole study on a small local module with
// one observed package: capture test, capture replay, replay speed,
// overhead and a mutant (random sets are the same path with a longer
// -observe list; randomSets is tested above). Needs the go command (not in
// a Bazel sandbox); no network.
func TestStudyOfMiniModule(t *testing.T) {
	bin, root := captureCommand(t)
	sub, err := ParseSubject("testdata/mini")
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile("testdata/mini/calc/calc.go")
	if err != nil {
		t.Fatal(err)
	}
	var progress strings.Builder
	rep, err := Run(Config{Capture: bin, Root: root, Work: t.TempDir(), Repeats: 1, Mutants: 1, Seed: 3, Packages: []string{"example.com/mini/calc"}, Log: &progress}, []Subject{sub})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(progress.String())
	if len(rep.Subjects) != 1 || rep.Subjects[0].Error != "" {
		t.Fatalf("subject: %+v", rep.Subjects[0])
	}
	res := rep.Subjects[0]
	if res.Tests != 4 || res.TestPackages != 2 {
		t.Errorf("baseline: %d tests in %d packages, want 4 in 2", res.Tests, res.TestPackages)
	}
	if len(res.Sets) != 1 {
		t.Fatalf("want the calc set only (-packages), got %d sets", len(res.Sets))
	}
	calc := res.Sets[0]
	if !reflect.DeepEqual(calc.Observed, []string{"example.com/mini/calc"}) || calc.Kind != "package" {
		t.Errorf("first set: %v %s", calc.Observed, calc.Kind)
	}
	// Every test of the module ran under capture with calc observed; all
	// four touch calc.
	if calc.Tests != 4 || calc.Logs != 4 || calc.Events == 0 || calc.LogBytes == 0 {
		t.Errorf("calc capture: %+v", calc)
	}
	if calc.Passed+calc.Diverged+calc.Errors != calc.Logs {
		t.Errorf("verdicts do not add up: %+v", calc)
	}
	if calc.Passed != calc.Logs {
		t.Errorf("calc replays: %d of %d passed: %+v", calc.Passed, calc.Logs, calc.Failures)
	}
	if calc.ReplayEventsPS <= 0 || calc.BytesPerEvent <= 0 {
		t.Errorf("speed %v events/s, %v bytes/event", calc.ReplayEventsPS, calc.BytesPerEvent)
	}
	if o := calc.Overhead; o == nil || o.Tests != 4 || o.MedianRatio <= 0 || o.WorstRatio < o.MedianRatio || o.SuiteRatio <= 0 || o.CPUMedianRatio <= 0 || o.CPUWorstRatio < o.CPUMedianRatio {
		t.Errorf("overhead: %+v", o)
	}
	m := calc.Mutation
	if m == nil || m.Kept != 1 || len(m.Mutants) != 1 || m.Logs != 4 {
		t.Fatalf("mutation: %+v", m)
	}
	onlyReplay, onlyTests := 0, 0
	for _, mu := range m.Mutants {
		if mu.ByReplay && !mu.ByTests {
			onlyReplay++
		}
		if mu.ByTests && !mu.ByReplay {
			onlyTests++
		}
	}
	if m.Both+m.Neither+onlyReplay+onlyTests != m.Kept || m.ByReplay != m.Both+onlyReplay || m.ByTests != m.Both+onlyTests {
		t.Errorf("mutation counts do not add up: %+v", m)
	}
	// The study works on a copy: the subject's files are untouched.
	if now, _ := os.ReadFile("testdata/mini/calc/calc.go"); string(now) != string(orig) {
		t.Error("the study changed the subject's own files")
	}
	out := t.TempDir()
	if err := rep.Write(out); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(out, "study.md"))
	if !strings.Contains(string(md), "| calc | 4 | 4 |") {
		t.Errorf("study.md lacks the calc row:\n%s", md)
	}
	var back Report
	b, _ := os.ReadFile(filepath.Join(out, "study.json"))
	if err := json.Unmarshal(b, &back); err != nil || back.Totals.Logs != rep.Totals.Logs {
		t.Errorf("study.json: %v, logs %d vs %d", err, back.Totals.Logs, rep.Totals.Logs)
	}
}

// writeLog writes a log of n events, capped at limit bytes (0: none).
func writeLog(t *testing.T, path string, n int, limit int64) {
	t.Helper()
	w, err := eventlog.Create(path, eventlog.Meta{}, eventlog.Options{BatchEvents: 128, MaxBytes: limit, Compression: eventlog.Uncompressed, Warn: func(string) {}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		w.Append(&eventlog.Event{Kind: eventlog.KindCallIn, Site: "s", Values: []byte(fmt.Sprintf("%040d", i))})
	}
	w.Close() // a capped log's Close reports the lost events
}

// TestCappedLogIsItsOwnOutcome: a log that reached capture test's size cap
// is classified as capped (from its status, or from replay's refusal),
// not as a replay error, and the report counts and lists it as such.
func TestCappedLogIsItsOwnOutcome(t *testing.T) {
	dir := t.TempDir()
	full, cut := filepath.Join(dir, "full.arrow"), filepath.Join(dir, "cut.arrow")
	writeLog(t, full, 100, 0)
	writeLog(t, cut, 5000, 64<<10)
	if capped(full) {
		t.Error("a complete log is classified as capped")
	}
	if !capped(cut) {
		t.Error("a log that reached its size cap is not classified as capped")
	}
	if capped(filepath.Join(dir, "missing.arrow")) {
		t.Error("a missing log is classified as capped")
	}
	refusal := replayOutcome{Verdict: "error", Error: cut + " is incomplete: 2345 events were dropped while capturing, and replay needs every event: 2345 of them could not be written (size_cap, from 2026-01-01T00:00:00Z): capture again with a larger CAPTURE_MAX_BYTES"}
	if !cappedOutcome(refusal) {
		t.Error("replay's refusal of a capped log is not classified as capped")
	}
	if cappedOutcome(replayOutcome{Verdict: "error", Error: "x is incomplete: 3 events were dropped while capturing, and replay needs every event: 3 of them could not be written (ENOSPC, from 2026-01-01T00:00:00Z): make room on its disk and capture again"}) {
		t.Error("a log cut by a full disk is classified as capped")
	}

	set := &SetResult{Observed: []string{"m/p"}, Kind: "package", Tests: 2, Logs: 2, Passed: 1, Capped: []string{"m/p.TestPerf"}, CappedBytes: 256 << 20}
	var tot Totals
	tot.add(set)
	if tot.Capped != 1 || tot.Errors != 0 || tot.Diverged != 0 {
		t.Errorf("totals %+v; want 1 capped and no errors or divergences", tot)
	}
	rep := &Report{MaxLogBytes: "256MiB", Totals: tot, Subjects: []*SubjectResult{{Subject: Subject{Name: "m", Module: "m", Patterns: []string{"./..."}}, Sets: []*SetResult{set}, Totals: tot}}}
	var b strings.Builder
	rep.Markdown(&b)
	for _, want := range []string{"0 replay errors, 1 capped (not replayed)", "| p | 2 | 2 | 0 | 1 | 0 | 0 | 1 |", "Logs capped at 256.0 MiB (not replayed):", "| p | 1 | 256.0 MiB | p.TestPerf |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
