package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probe"
	"github.com/rules-capture/rules_capture/tool/minimize"
)

// TestMinimizePlanted: a planted failure among 400 incalls. The program
// tool/minimize/testdata/planted restocks eleven skus and then makes a
// stream of reservations, cancellations and stock checks; two requests
// among them, a bulk reservation of the rare sku "X" (call 60) and its
// cancellation (call 180), decide whether the 300th, a reservation of 8 of
// X, succeeds. The log is captured from the correct code; a mutation that
// makes the cancellation of a bulk reservation leak its items is today's
// code. capture minimize, with the correct code as baseline, must reduce
// the log to a handful of incalls including both culprits, and the test
// file it writes must fail on the buggy code and pass on the correct one.
func TestMinimizePlanted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	const observe = "example.com/planted/stock"
	work, good, buggy := plantedTrees(t, "good", "buggy", filepath.Join("stock", "stock.go"), "\t\tbulk[h.sku] -= h.n\n", "")
	log := filepath.Join(work, "logs", "day.arrow")
	if out, err := captureField(t, good, observe, "./cmd/shopfloor", filepath.Join(work, "shopfloor"), log); err != nil || !strings.Contains(string(out), "400 calls, 0 failed") {
		t.Fatalf("capture run: %v\n%s", err, out)
	}

	out := filepath.Join(work, "out")
	orig, min := minimizeLog(t, buggy, observe, out, log, "TestReproReserve", 0, "-baseline", good)
	var calls []string
	for _, e := range min.Events {
		if e.Kind == eventlog.KindCallIn {
			calls = append(calls, e.Site[strings.LastIndex(e.Site, ".")+1:]+"("+renderValues(e.Values)+")")
		}
	}
	t.Logf("%d -> %d incalls, %d -> %d events: %s", len(orig.Units), len(min.Units), len(orig.Events), len(min.Events), strings.Join(calls, " "))
	if len(orig.Units) != 400 || len(min.Units) > 6 {
		t.Errorf("%d -> %d incalls: want 400 reduced to a handful", len(orig.Units), len(min.Units))
	}
	joined := strings.Join(calls, "\n")
	for _, culprit := range []string{`Reserve("bulk-x", "X", 6)`, `Cancel("bulk-x")`, `Reserve("late-x", "X", 8)`} {
		if !strings.Contains(joined, culprit) {
			t.Errorf("the minimal log lacks %s: %s", culprit, calls)
		}
	}
	listing, err := os.ReadFile(filepath.Join(out, "testdata", "repro", "TestReproReserve.txt"))
	if err != nil || !strings.Contains(string(listing), "^ replay diverges here") {
		t.Errorf("listing without the failure's mark (%v):\n%s", err, listing)
	}
	runRepro(t, out, "stock", "TestReproReserve", buggy, good, "DIVERGED")
}

// TestMinimizePanic: a crash log of unchanged code. The program
// tool/minimize/testdata/planted/cmd/dispatch makes 300 calls of the queue
// package; the last, Start("night-x"), hands work to the pool (external
// code), which calls it back, and that callback panics on the tombstone
// Cancel("night-x") left 100 calls earlier for the job Submit("night-x")
// queued 160 calls before that. The panic ends the program, so the log's
// last events are its way out: PANIC_OUT of the callback, PANIC_IN of the
// pool's Do, PANIC_OUT of Start. The log replays as recorded against the
// same code; capture minimize must take the recorded panic as the failure,
// reduce the log to the three calls, and write a test that fails while the
// code still panics there and passes once Start checks for the tombstone.
func TestMinimizePanic(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	const observe = "example.com/planted/queue"
	work, buggy, fixed := plantedTrees(t, "buggy", "fixed", filepath.Join("queue", "queue.go"), "\tif !ok {\n\t\treturn -1", "\tif !ok || p == nil {\n\t\treturn -1")
	log := filepath.Join(work, "logs", "crash.arrow")
	if out, err := captureField(t, buggy, observe, "./cmd/dispatch", filepath.Join(work, "dispatch"), log); err == nil || !strings.Contains(string(out), "nil pointer dereference") {
		t.Fatalf("the field run should crash with the planted panic: %v\n%s", err, out)
	}

	out := filepath.Join(work, "out")
	orig, min := minimizeLog(t, buggy, observe, out, log, "TestReproStart", 6)
	calls := topCalls(min)
	t.Logf("%d -> %d incalls, %d -> %d events: %s", len(orig.Units), len(min.Units), len(orig.Events), len(min.Events), strings.Join(calls, " "))
	want := []string{`Submit("night-x", 3)`, `Cancel("night-x")`, `Start("night-x")`}
	if len(orig.Units) != 300 || strings.Join(calls, " ") != strings.Join(want, " ") {
		t.Errorf("%d -> %d incalls %s: want 300 reduced to %s", len(orig.Units), len(min.Units), calls, want)
	}
	if last := min.Events[len(min.Events)-1]; last.Kind != eventlog.KindPanicOut {
		t.Errorf("the minimal log ends with %s, want Start's PANIC_OUT", last.Kind)
	}
	listing, err := os.ReadFile(filepath.Join(out, "testdata", "repro", "TestReproStart.txt"))
	if err != nil || !strings.Contains(string(listing), "^ the recorded panic") || !strings.Contains(string(listing), "callback example.com/planted/queue.Start.func1()") {
		t.Errorf("listing without the callback or the panic's mark (%v):\n%s", err, listing)
	}
	if !strings.Contains(string(listing), `the caller calls queue.Start("night-x")`) {
		t.Errorf("the listing file lacks the explanation:\n%s", listing)
	}
	explained, code := runCapture(t, work, "explain", filepath.Join(out, "testdata", "repro", "TestReproStart.arrow"))
	for _, want := range []string{`the caller calls queue.Cancel("night-x")`, "the outside calls back queue.Start.func1()", "queue.Start panics with"} {
		if code != 0 || !strings.Contains(explained, want) {
			t.Errorf("capture explain (exit %d) lacks %q:\n%s", code, want, explained)
		}
	}
	runRepro(t, out, "queue", "TestReproStart", buggy, fixed, "the code still panics as the log records")
}

// TestMinimizeConcurrent: a failure on one goroutine stream that depends
// on one call on another. The program tool/minimize/testdata/planted/cmd/workers
// calls the quota package from four goroutines, 400 calls in all, each
// taking the package's mutex (a LOCK_TURN per call); worker 1 lowers the
// shared quota "batch" to 8, and worker 3, later, is refused 10 units of
// it. Today's code never lowers a limit, so worker 3's Take succeeds: a
// divergence on its stream, which only worker 1's SetLimit explains.
// Minimize, with the correct code as baseline, must keep exactly those two
// calls, on their two streams, with the lock turns renumbered over what
// is kept, and the generated test must fail on the buggy code and pass on
// the correct one.
func TestMinimizeConcurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	const observe = "example.com/planted/quota"
	work, good, buggy := plantedTrees(t, "good", "buggy", filepath.Join("quota", "quota.go"), "\tlimits[key] = n\n", "\tlimits[key] = max(n, old)\n")
	log := filepath.Join(work, "logs", "shift.arrow")
	if out, err := captureField(t, good, observe, "./cmd/workers", filepath.Join(work, "workers"), log); err != nil || !strings.Contains(string(out), "refused: [0 0 0 1]") {
		t.Fatalf("capture run: %v\n%s", err, out)
	}

	out := filepath.Join(work, "out")
	orig, min := minimizeLog(t, buggy, observe, out, log, "TestReproTake", 0, "-baseline", good)
	streams := func(l *minimize.Log) map[uint32]bool {
		s := map[uint32]bool{}
		for _, u := range l.Units {
			s[u.Stream] = true
		}
		return s
	}
	calls := topCalls(min)
	t.Logf("%d -> %d incalls, %d -> %d events, %d -> %d streams: %s", len(orig.Units), len(min.Units), len(orig.Events), len(min.Events),
		len(streams(orig)), len(streams(min)), strings.Join(calls, " "))
	if len(orig.Units) != 400 || len(streams(orig)) != 4 {
		t.Errorf("the captured log has %d incalls on %d streams, want 400 on 4", len(orig.Units), len(streams(orig)))
	}
	if got := strings.Join(calls, " "); got != `SetLimit("batch", 8) Take("batch", 10)` || len(streams(min)) != 2 {
		t.Errorf("minimal log %s on %d streams, want SetLimit and Take on two", got, len(streams(min)))
	}
	var turns []string
	for _, e := range min.Events {
		if e.Kind == eventlog.KindLockTurn {
			turns = append(turns, renderValues(e.Values))
		}
	}
	if strings.Join(turns, " | ") != "1, 1, 0, true | 1, 2, 0, true" {
		t.Errorf("lock turns of the minimal log: %q, want the mutex's first and second acquisition", turns)
	}
	runRepro(t, out, "quota", "TestReproTake", buggy, good, "DIVERGED")
}

// plantedTrees copies the planted programs (tool/minimize/testdata/planted)
// into two trees, plain and mutated, below a fresh folder work; in the
// mutated one, file (relative to the tree) has old replaced by new.
func plantedTrees(t *testing.T, plain, mutated, file, old, new string) (work, plainTree, mutatedTree string) {
	t.Helper()
	src := filepath.Join(repoRoot(t), "tool", "minimize", "testdata", "planted")
	work = t.TempDir()
	plainTree, mutatedTree = filepath.Join(work, plain), filepath.Join(work, mutated)
	copyDir(t, src, plainTree)
	copyDir(t, src, mutatedTree)
	mutate(t, filepath.Join(mutatedTree, file), old, new)
	return work, plainTree, mutatedTree
}

// captureField builds the main package pkg of tree as bin, with capture of
// observe, and runs it as the field would, its log at log, with env added
// to its environment: the run's output and error, for the test to judge.
func captureField(t *testing.T, tree, observe, pkg, bin, log string, env ...string) ([]byte, error) {
	t.Helper()
	if out, code := runCapture(t, tree, "build", "-observe", observe, "-o", bin, pkg); code != 0 {
		t.Fatalf("capture build: exit %d\n%s", code, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(append(os.Environ(), probe.EnvLog+"="+log, probe.EnvPolicy+"=block"), env...)
	return cmd.CombinedOutput()
}

// minimizeLog runs capture minimize (with flags) on log in tree, writing
// to out, and reads the log and the minimal log of the test named test.
// The test's log shows minimize's output, its last tail lines if tail > 0.
func minimizeLog(t *testing.T, tree, observe, out, log, test string, tail int, flags ...string) (orig, min *minimize.Log) {
	t.Helper()
	start := time.Now()
	args := append(append([]string{"minimize", "-observe", observe}, flags...), "-o", out, log)
	text, code := runCapture(t, tree, args...)
	if code != 0 {
		t.Fatalf("capture minimize: exit %d\n%s", code, text)
	}
	shown := text
	if tail > 0 {
		shown = lastLines(text, tail)
	}
	t.Logf("minimize took %s:\n%s", time.Since(start).Round(time.Millisecond), shown)
	orig, err := minimize.Read(log)
	if err != nil {
		t.Fatal(err)
	}
	min, err = minimize.Read(filepath.Join(out, "testdata", "repro", test+".arrow"))
	if err != nil {
		t.Fatal(err)
	}
	return orig, min
}

// topCalls lists the top-level incalls of a log as Func(args).
func topCalls(l *minimize.Log) []string {
	var calls []string
	for _, u := range l.Units {
		e, _ := l.Event(u.First)
		calls = append(calls, e.Site[strings.LastIndex(e.Site, ".")+1:]+"("+renderValues(e.Values)+")")
	}
	return calls
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// runRepro copies the minimize output into package pkg of both trees and
// runs the generated test there: it must fail on the buggy tree, saying
// failing, and pass on the fixed one.
func runRepro(t *testing.T, out, pkg, test, buggy, fixed, failing string) {
	t.Helper()
	file := filepath.Join(out, pkg+"_repro_test.go")
	if b, err := exec.Command("gofmt", "-l", file).CombinedOutput(); err != nil || len(b) != 0 {
		t.Errorf("gofmt -l %s: %v %s", file, err, b)
	}
	for _, tree := range []string{buggy, fixed} {
		copyDir(t, out, filepath.Join(tree, pkg))
		cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "^"+test+"$", "./"+pkg)
		cmd.Dir = tree
		cmd.Env = append(os.Environ(), "CAPTURE="+captureBin, "CAPTURE_ROOT="+repoRoot(t))
		b, err := cmd.CombinedOutput()
		switch {
		case tree == buggy && (err == nil || !strings.Contains(string(b), failing)):
			t.Errorf("the generated test on the buggy code: %v, want a failure saying %q\n%s", err, failing, b)
		case tree == fixed && err != nil:
			t.Errorf("the generated test on the fixed code: %v\n%s", err, b)
		default:
			t.Logf("the generated test on the %s code: %s", map[bool]string{true: "buggy", false: "fixed"}[tree == buggy], lastLines(string(b), 5))
		}
	}
}

func mutate(t *testing.T, file, old, new string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s lacks %q", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}
