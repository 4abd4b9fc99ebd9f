package study

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestCaughtByTestsCountsOnlyTestsThatPassWithoutCapture: a mutant is
// caught by the module's tests only through a test that passes on the
// unchanged code without capture (the baseline). A test that fails there
// already (TestOld) fails on every mutant and must not count; a subtest's
// failure counts as its top-level test's; a package that fails with no
// failed test (TestMain, a test binary that does not build) counts if it
// has a passing test. The input is `go test -json` output as Go prints it.
func TestCaughtByTestsCountsOnlyTestsThatPassWithoutCapture(t *testing.T) {
	baseline := map[string]map[string]bool{
		"example.com/m/a": {"TestOld": false, "TestOK": true, "TestFine": true},
		"example.com/m/b": {"TestB": true},
		"example.com/m/c": {"TestC": true},
		"example.com/m/d": {"TestBroken": false},
	}
	passed := func(pkg, test string) bool {
		if test == "" {
			for _, ok := range baseline[pkg] {
				if ok {
					return true
				}
			}
			return false
		}
		return baseline[pkg][test]
	}

	onlyOld := []byte(`{"Action":"start","Package":"example.com/m/a"}
{"Action":"run","Package":"example.com/m/a","Test":"TestOld"}
{"Action":"output","Package":"example.com/m/a","Test":"TestOld","Output":"--- FAIL: TestOld (0.00s)\n"}
{"Action":"fail","Package":"example.com/m/a","Test":"TestOld","Elapsed":0}
{"Action":"run","Package":"example.com/m/a","Test":"TestOK"}
{"Action":"pass","Package":"example.com/m/a","Test":"TestOK","Elapsed":0}
{"Action":"fail","Package":"example.com/m/a","Elapsed":0.009}
{"Action":"start","Package":"example.com/m/d"}
{"Action":"fail","Package":"example.com/m/d","Test":"TestBroken","Elapsed":0}
{"Action":"fail","Package":"example.com/m/d","Elapsed":0.009}
`)
	if got := caughtByTests(onlyOld, passed); len(got) != 0 {
		t.Errorf("only tests that fail without capture failed: got %q, want nothing", got)
	}

	caught := []byte(`{"Action":"start","Package":"example.com/m/a"}
{"Action":"fail","Package":"example.com/m/a","Test":"TestOld","Elapsed":0}
{"Action":"run","Package":"example.com/m/a","Test":"TestOK/s"}
{"Action":"fail","Package":"example.com/m/a","Test":"TestOK/s","Elapsed":0}
{"Action":"fail","Package":"example.com/m/a","Test":"TestOK","Elapsed":0}
{"Action":"fail","Package":"example.com/m/a","Elapsed":0.009}
{"Action":"start","Package":"example.com/m/b"}
{"Action":"output","Package":"example.com/m/b","Output":"panic: boom\n"}
{"Action":"fail","Package":"example.com/m/b","Elapsed":0.008}
{"ImportPath":"example.com/m/c [example.com/m/c.test]","Action":"build-fail"}
{"Action":"fail","Package":"example.com/m/c","Elapsed":0,"FailedBuild":"example.com/m/c [example.com/m/c.test]"}
not json: go: some complaint
{"Action":"fail","Package":"example.com/m/d","Elapsed":0}
`)
	want := []string{"example.com/m/a.TestOK", "example.com/m/b (package)", "example.com/m/c (package)"}
	if got := caughtByTests(caught, passed); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestMutantTestLimitIsThePackagesLimit: the module's tests on a mutant
// get the per-test limit of the slowest package's tests together without
// capture (the larger of the floor and the factor times their sum), not
// a fixed five minutes, so a mutant that hangs a quick module's tests
// costs about the floor.
func TestMutantTestLimitIsThePackagesLimit(t *testing.T) {
	pkg := func(d ...time.Duration) *testPackage {
		tp := &testPackage{}
		for _, x := range d {
			tp.tests = append(tp.tests, &testCase{plain: x})
		}
		return tp
	}
	cfg := Config{TestLimit: time.Minute, TestLimitFactor: 20}
	for _, c := range []struct {
		pkgs []*testPackage
		want time.Duration
	}{
		{nil, time.Minute},
		{[]*testPackage{pkg(10 * time.Millisecond)}, time.Minute},
		{[]*testPackage{pkg(2*time.Second, 3*time.Second), pkg(4 * time.Second)}, 100 * time.Second},
		{[]*testPackage{pkg(time.Second), pkg(3*time.Second, 3*time.Second)}, 120 * time.Second},
	} {
		m := &moduleRun{r: &runner{cfg: cfg}, testPkgs: c.pkgs}
		if got := m.mutantTestLimit(); got != c.want {
			t.Errorf("mutantTestLimit = %v, want %v", got, c.want)
		}
	}
}

// TestConfirmFailuresKeepsOnlyRepeatedFailures: a test failure on a
// mutant counts only if the test fails again alone on the mutant and
// passes alone on the unchanged code; a package's failure counts as it is.
func TestConfirmFailuresKeepsOnlyRepeatedFailures(t *testing.T) {
	failed := []string{"m/a.TestReal", "m/a.TestLoaded", "m/a.TestFlaky", "m/b (package)"}
	again := map[string]bool{"m/a.TestReal": true, "m/a.TestFlaky": true}
	orig := map[string]bool{"m/a.TestFlaky": true}
	kept, unconfirmed := confirmFailures(failed, again, orig)
	if want := []string{"m/a.TestReal", "m/b (package)"}; !reflect.DeepEqual(kept, want) {
		t.Errorf("kept %q, want %q", kept, want)
	}
	if want := []string{"m/a.TestLoaded", "m/a.TestFlaky"}; !reflect.DeepEqual(unconfirmed, want) {
		t.Errorf("unconfirmed %q, want %q", unconfirmed, want)
	}
}

// TestFailingAloneRunsOnlyTheFailedTests: failingAlone runs the named
// tests of each package by themselves, so a test that failed only after
// another test of the module's run (here one that leaves state behind, as
// a loaded machine leaves a timing test late) is not reported again, and
// one that fails whatever runs with it is.
func TestFailingAloneRunsOnlyTheFailedTests(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/alone\n\ngo 1.22\n",
		"a/a_test.go": `package a

import "testing"

var dirty bool

func TestLeavesState(t *testing.T)      { dirty = true }
func TestFailsAfterOthers(t *testing.T) { if dirty { t.Fatal("state left by another test") } }
func TestAlwaysFails(t *testing.T)      { t.Fatal("always") }
func TestPasses(t *testing.T)           {}
`,
	}
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := &moduleRun{r: &runner{cfg: Config{Timeout: 5 * time.Minute, TestLimit: time.Minute}}, dir: dir}
	got := m.failingAlone([]string{"example.com/alone/a.TestFailsAfterOthers", "example.com/alone/a.TestAlwaysFails", "example.com/alone/a (package)"})
	if want := map[string]bool{"example.com/alone/a.TestAlwaysFails": true}; !reflect.DeepEqual(got, want) {
		t.Errorf("failingAlone = %v, want %v", got, want)
	}
}
