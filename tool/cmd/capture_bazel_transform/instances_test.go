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

// TestInstances: the file is a source of the harness's test package that
// instantiates each generic incall of the logs once; incalls it cannot
// instantiate are left out (the action says so on stderr).
func TestInstances(t *testing.T) {
	log := writeInstancesLog(t, "example.com/m/gen.Sum[int]", "example.com/m/gen.Sum[int]",
		"(*example.com/m/gen.Stack[example.com/m/types.ID]).Push", "example.com/m/gen.Sum[main.money]", "example.com/m/gen.Plain")
	out := filepath.Join(t.TempDir(), "instances_test.go")
	if err := runInstances([]string{"-package", "capture_replay_test", "-observe", "example.com/m/gen", "-dep", "example.com/m/types", "-o", out, log}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
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
}

// TestInstancesNone: without generic incalls the declared output still is a
// valid source of the package.
func TestInstancesNone(t *testing.T) {
	log := writeInstancesLog(t, "example.com/m/gen.Plain")
	out := filepath.Join(t.TempDir(), "instances_test.go")
	if err := runInstances([]string{"-package", "capture_replay_test", "-observe", "example.com/m/gen", "-o", out}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	if !strings.HasSuffix(string(b), "\npackage capture_replay_test\n") {
		t.Errorf("output:\n%s", b)
	}
	if err := runInstances([]string{"-observe", "example.com/m/gen", "-o", out, log}); err == nil || !strings.Contains(err.Error(), "-package") {
		t.Errorf("no -package: %v", err)
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

// TestInstancesNotLinked: an instantiation whose type argument's package the
// harness does not link is skipped, naming the package and the fix, not left
// to break the harness's build.
func TestInstancesNotLinked(t *testing.T) {
	r, err := parseInstancesArgs([]string{"-package", "p_test", "-observe", "example.com/m/gen", "-o", "x.go"})
	if err != nil {
		t.Fatal(err)
	}
	src, skipped, err := transform.HarnessInstances(r.harness, r.observed, []string{"example.com/m/gen.Sum[example.com/m/types.ID]", "example.com/m/gen.Sum[time.Duration]", "example.com/m/gen.Sum[int]"}, linkedBuild{r.deps})
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

// TestInstancesHostileLog: a log whose site is no capture's fails the
// action, naming the log and the site, and writes no file.
func TestInstancesHostileLog(t *testing.T) {
	for _, site := range []string{
		"(*example.com/m/gen.Stack[int]).Push\nos.Exit(1)",
		"example.com/m/gen.Sum[int]()\n\tos.Exit(1)\n\t_ = x[int]",
	} {
		log := writeInstancesLog(t, "example.com/m/gen.Sum[int]", site)
		out := filepath.Join(t.TempDir(), "instances_test.go")
		err := runInstances([]string{"-package", "capture_replay_test", "-observe", "example.com/m/gen", "-o", out, log})
		if err == nil || !strings.Contains(err.Error(), "log "+log+": site "+strconv.Quote(site)) || !strings.Contains(err.Error(), "may be corrupt or hostile") {
			t.Errorf("%q: error %v; want one naming the log and the site", site, err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: the action wrote its output", site)
		}
	}
	// A type of a package the harness does not link is skipped, not
	// imported: "evil.com/x" is not a -dep, and has a dot.
	log := writeInstancesLog(t, "example.com/m/gen.Sum[evil.com/x.T]")
	out := filepath.Join(t.TempDir(), "instances_test.go")
	if err := runInstances([]string{"-package", "capture_replay_test", "-observe", "example.com/m/gen", "-o", out, log}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(out); strings.Contains(string(b), "evil") {
		t.Errorf("the harness imports a package no -dep names:\n%s", b)
	}
}
