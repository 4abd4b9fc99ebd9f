package study

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestUnquoteRunReadsCaptureTestsRunPattern(t *testing.T) {
	for _, name := range []string{"TestX", "TestA_b2", "Test.Odd+Name"} {
		if got := unquoteRun("^" + regexp.QuoteMeta(name) + "$"); got != name {
			t.Errorf("unquoteRun of %q = %q", name, got)
		}
	}
	for _, re := range []string{".", "TestX", "^Test(A|B)$", "^$"} {
		if got := unquoteRun(re); got != "" {
			t.Errorf("unquoteRun(%q) = %q, want none (not one test)", re, got)
		}
	}
}

func TestParentOfReadsProcStat(t *testing.T) {
	if got := parentOf([]byte("4242 (a (weird) name) S 17 4242 4242 0 -1")); got != 17 {
		t.Errorf("parentOf = %d, want 17", got)
	}
	if got := parentOf([]byte("garbage")); got != -1 {
		t.Errorf("parentOf(garbage) = %d, want -1", got)
	}
	if _, err := os.Stat("/proc/self/stat"); err == nil {
		b, _ := os.ReadFile("/proc/self/stat")
		if got := parentOf(b); got != os.Getppid() {
			t.Errorf("parentOf(/proc/self/stat) = %d, want %d", got, os.Getppid())
		}
	}
}

func TestTestLimitIsTheLargerOfFloorAndFactor(t *testing.T) {
	cfg := Config{TestLimit: time.Minute, TestLimitFactor: 20}
	if got := cfg.testLimit(10 * time.Millisecond); got != time.Minute {
		t.Errorf("quick test: %v, want the floor", got)
	}
	if got := cfg.testLimit(6 * time.Second); got != 2*time.Minute {
		t.Errorf("6 s test: %v, want 20 × 6 s", got)
	}
	if got := (Config{}).testLimit(time.Second); got != DefaultTestLimit {
		t.Errorf("defaults: %v", got)
	}
}

// TestStudyHelperProcess is the test process the watch test starts: it
// sleeps until killed, when STUDY_HELPER_SLEEP is set.
func TestStudyHelperProcess(t *testing.T) {
	if os.Getenv("STUDY_HELPER_SLEEP") == "" {
		t.Skip("only as a child of TestWatchKillsOnlyTheTestPastItsLimit")
	}
	time.Sleep(time.Minute)
}

// TestWatchKillsOnlyTheTestPastItsLimit: of the processes started as
// capture test starts its tests (BIN -test.run ^Name$), the one past its
// limit is killed and reported; one within its limit, and one whose
// binary is not in the watched directory, are left alone.
func TestWatchKillsOnlyTheTestPastItsLimit(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	binDir := t.TempDir()
	spawn := func(argv0 string) *exec.Cmd {
		c := exec.Command(os.Args[0], "-test.run", "^TestStudyHelperProcess$", "-test.count=1")
		c.Args[0] = argv0 // what /proc shows, as for capture test's kept binaries
		c.Env = append(os.Environ(), "STUDY_HELPER_SLEEP=1")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		return c
	}
	short := spawn(filepath.Join(binDir, "m_short.test"))
	long := spawn(filepath.Join(binDir, "m_long.test"))
	other := spawn(filepath.Join(t.TempDir(), "m_short.test"))
	w := newTestWatch(binDir, func(bin, test string) time.Duration {
		if bin == "m_short.test" && test == "TestStudyHelperProcess" {
			return time.Second
		}
		return time.Hour
	})
	w.poll = 50 * time.Millisecond
	stop := w.start(os.Getpid())
	done := make(chan error, 1)
	go func() { done <- short.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the test past its limit was not killed")
	}
	stop()
	got := w.killedTests()
	if len(got) != 1 || got[0] != (timedOut{bin: "m_short.test", test: "TestStudyHelperProcess", limit: time.Second}) {
		t.Errorf("killed %+v, want m_short.test's test at 1s", got)
	}
	for _, c := range []*exec.Cmd{long, other} {
		if c.ProcessState != nil || c.Process.Signal(syscall.Signal(0)) != nil {
			t.Errorf("%s was stopped; only the watched test past its limit may be", c.Args[0])
		}
	}
}

// captureCommand builds the capture command once for the tests that run it.
func captureCommand(t *testing.T) (bin, root string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the capture command")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin = filepath.Join(t.TempDir(), "capture")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/rules-capture/rules_capture/tool/cmd/capture").CombinedOutput(); err != nil {
		t.Fatalf("building capture: %v\n%s", err, out)
	}
	return bin, root
}

// TestTestPastItsLimitIsItsOwnOutcome studies a module with a test that is
// quick without capture and sleeps under it: the study kills it at its
// limit, records it as timed out (not a round trip, not a failure under
// capture) and still studies the module's other test.
func TestTestPastItsLimitIsItsOwnOutcome(t *testing.T) {
	bin, root := captureCommand(t)
	mod := t.TempDir()
	writeFiles(t, mod, map[string]string{
		"go.mod": "module example.com/slow\n\ngo 1.26\n",
		"slow.go": `// Package slow has one quick and one slow test under capture.
package slow

// Double doubles x.
func Double(x int) int { return 2 * x }
`,
		"slow_test.go": `package slow_test

import (
	"os"
	"testing"
	"time"

	"example.com/slow"
)

func TestQuick(t *testing.T) {
	if slow.Double(2) != 4 {
		t.Fatal("Double is wrong")
	}
}

// TestSlow stands for a test that runs far longer under capture.
func TestSlow(t *testing.T) {
	if slow.Double(3) != 6 {
		t.Fatal("Double is wrong")
	}
	if os.Getenv("CAPTURE_LOG") != "" {
		time.Sleep(10 * time.Minute)
	}
}
`,
	})
	sub, err := ParseSubject(mod)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	rep, err := Run(Config{Capture: bin, Root: root, Work: t.TempDir(), TestLimit: 3 * time.Second, TestLimitFactor: 20, Timeout: 5 * time.Minute}, []Subject{sub})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 4*time.Minute {
		t.Errorf("the study took %v: the slow test was not stopped at its limit", d)
	}
	res := rep.Subjects[0]
	if res.Error != "" || len(res.Sets) != 1 {
		t.Fatalf("subject: %+v", res)
	}
	s := res.Sets[0]
	if len(s.TimedOut) != 1 || s.TimedOut[0].Test != "example.com/slow.TestSlow" || s.TimedOut[0].Limit != 3 {
		t.Errorf("timed out: %+v, want TestSlow at 3 s", s.TimedOut)
	}
	if s.Error != "" || len(s.CaptureFailed) != 0 || s.Logs != 1 || s.Passed != 1 || s.Diverged+s.Errors != 0 {
		t.Errorf("set: %+v; want TestQuick's one passing round trip and no failure", s)
	}
	if rep.Totals.TimedOut != 1 || rep.Totals.Logs != 1 {
		t.Errorf("totals: %+v", rep.Totals)
	}
	var b strings.Builder
	rep.Markdown(&b)
	for _, want := range []string{"1 tests ran past their limit (limit per test: the larger of 3s and 20 × its time without capture", "| (root) | 2 | 1 |", "| (root) | 1 | TestSlow (3s) |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
