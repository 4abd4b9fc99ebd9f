package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/tool/transform"
)

func writeInstancesLog(t *testing.T, sites ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.arrow")
	w, err := eventlog.Create(path, eventlog.Meta{}, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, site := range sites {
		in := eventlog.Event{Stream: 1, Kind: eventlog.KindCallIn, Site: site}
		call := w.Append(&in)
		ret := eventlog.Event{Stream: 1, Kind: eventlog.KindReturnIn, Parent: call, Site: site}
		w.Append(&ret)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// harnessArgs are the arguments of a harness action over logs.
func harnessArgs(dir string, logs ...string) []string {
	args := []string{"-package", "capture_replay_test", "-target", "//m:replay_test", "-check", "returns", "-observe", "example.com/m/gen", "-dep", "example.com/m/types",
		"-main", filepath.Join(dir, "main_test.go"), "-o", filepath.Join(dir, "instances_test.go")}
	for _, l := range logs {
		args = append(args, "-runfile", "_main/m/testdata/"+filepath.Base(l))
	}
	return append(args, logs...)
}

// TestHarness: the action writes the test main, with the label, check
// level, observed set and the runfiles paths of the logs, and a source of
// the harness's test package that instantiates each generic incall of the
// logs once; incalls it cannot instantiate are left out (the action says so
// on stderr).
func TestHarness(t *testing.T) {
	log := writeInstancesLog(t, "example.com/m/gen.Sum[int]", "example.com/m/gen.Sum[int]",
		"(*example.com/m/gen.Stack[example.com/m/types.ID]).Push", "example.com/m/gen.Sum[main.money]", "example.com/m/gen.Plain")
	dir := t.TempDir()
	if err := runHarness(append(harnessArgs(dir, log), "-shards", "2")); err == nil {
		t.Error("a flag after the logs was taken")
	}
	if err := runHarness(append([]string{"-shards", "2"}, harnessArgs(dir, log)...)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "instances_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	for _, want := range []string{"\npackage capture_replay_test\n", `"example.com/m/types"`, ".CaptureInstance_Stack_Push[_i"} {
		if !strings.Contains(src, want) {
			t.Errorf("no %q in:\n%s", want, src)
		}
	}
	if strings.Count(src, ".CaptureInstance_Sum[int]()") != 1 || strings.Contains(src, "money") || strings.Contains(src, "Plain") || strings.Contains(src, "package main") {
		t.Errorf("output:\n%s", src)
	}
	b, err = os.ReadFile(filepath.Join(dir, "main_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	src = string(b)
	for _, want := range []string{"\npackage capture_replay_test\n", `Target: "//m:replay_test",`, `Check:  "returns",`, `"_main/m/testdata/run.arrow",`, "\t_ \"example.com/m/gen\"\n",
		"func TestReplayShard1(t *testing.T) { harness.Run(t, config, 1, 2) }"} {
		if !strings.Contains(src, want) {
			t.Errorf("no %q in:\n%s", want, src)
		}
	}
}

// TestHarnessNoLogs: without logs (or without generic incalls) the declared
// outputs still are valid sources of the package.
func TestHarnessNoLogs(t *testing.T) {
	dir := t.TempDir()
	if err := runHarness(harnessArgs(dir)); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "instances_test.go"))
	if !strings.HasSuffix(string(b), "\npackage capture_replay_test\n") {
		t.Errorf("output:\n%s", b)
	}
	b, _ = os.ReadFile(filepath.Join(dir, "main_test.go"))
	if !strings.Contains(string(b), "Logs: []string{},") || !strings.Contains(string(b), "func TestReplay(t *testing.T) { harness.Run(t, config, 0, 1) }") {
		t.Errorf("main:\n%s", b)
	}
	for _, c := range []struct {
		drop string
		want string
	}{{"-package", "-package"}, {"-main", "-main"}, {"-check", "-check"}, {"-observe", "-observe"}} {
		args := harnessArgs(dir)
		for i := range args {
			if args[i] == c.drop {
				args = append(args[:i:i], args[i+2:]...)
				break
			}
		}
		if err := runHarness(args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("no %s: %v", c.drop, err)
		}
	}
	log := writeInstancesLog(t, "example.com/m/gen.Plain")
	if err := runHarness(append(harnessArgs(dir), log)); err == nil || !strings.Contains(err.Error(), "0 -runfile paths for 1 logs") {
		t.Errorf("a log without its runfiles path: %v", err)
	}
}

func TestCommonParent(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"example.com/shop/pricing"}, "example.com/shop/pricing"},
		{[]string{"example.com/shop/pricing", "example.com/shop/tax"}, "example.com/shop"},
		{[]string{"example.com/shop/pricing", "example.com/shopx/tax"}, "example.com"},
	} {
		if got := commonParent(c.in); got != c.want {
			t.Errorf("commonParent(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestHarnessNotLinked: an instantiation whose type argument's package the
// harness does not link is skipped, naming the package and the fix, not left
// to break the harness's build.
func TestHarnessNotLinked(t *testing.T) {
	r, err := parseHarnessArgs([]string{"-package", "p_test", "-target", "//p:t", "-check", "strict", "-observe", "example.com/m/gen", "-main", "m.go", "-o", "x.go"})
	if err != nil {
		t.Fatal(err)
	}
	src, skipped, err := transform.HarnessInstances(r.pkg, r.harness, r.observed, []string{"example.com/m/gen.Sum[example.com/m/types.ID]", "example.com/m/gen.Sum[time.Duration]", "example.com/m/gen.Sum[int]"}, linkedBuild{r.deps})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), `"time"`) || strings.Count(string(src), "CaptureInstance_Sum[") != 2 || strings.Contains(string(src), "types") {
		t.Errorf("linkable:\n%s", src)
	}
	if len(skipped) != 1 || !strings.Contains(skipped[0], "gen.Sum[example.com/m/types.ID]: the replay harness does not link example.com/m/types: add its go_library to the go_replay_test's deps") {
		t.Errorf("skipped: %q", skipped)
	}
}

// TestHarnessHostileLog: a log whose site is no capture's fails the
// action, naming the log and the site, and writes no file.
func TestHarnessHostileLog(t *testing.T) {
	for _, site := range []string{
		"(*example.com/m/gen.Stack[int]).Push\nos.Exit(1)",
		"example.com/m/gen.Sum[int]()\n\tos.Exit(1)\n\t_ = x[int]",
	} {
		log := writeInstancesLog(t, "example.com/m/gen.Sum[int]", site)
		dir := t.TempDir()
		err := runHarness(harnessArgs(dir, log))
		if err == nil || !strings.Contains(err.Error(), "log "+log+": site "+strconv.Quote(site)) || !strings.Contains(err.Error(), "may be corrupt or hostile") {
			t.Errorf("%q: error %v; want one naming the log and the site", site, err)
		}
		for _, out := range []string{"main_test.go", "instances_test.go"} {
			if _, err := os.Stat(filepath.Join(dir, out)); err == nil {
				t.Errorf("%q: the action wrote %s", site, out)
			}
		}
	}
	// A type of a package the harness does not link is skipped, not
	// imported: "evil.com/x" is not a -dep, and has a dot.
	log := writeInstancesLog(t, "example.com/m/gen.Sum[evil.com/x.T]")
	dir := t.TempDir()
	if err := runHarness(harnessArgs(dir, log)); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "instances_test.go")); strings.Contains(string(b), "evil") {
		t.Errorf("the harness imports a package no -dep names:\n%s", b)
	}
}
