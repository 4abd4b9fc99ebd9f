package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

func instancesCmd(args []string, o, e *bytes.Buffer) int { return runInstances(args, o, e) }

// TestInstancesCommand: the harness file names the generic incalls of the
// logs, once, and says which it cannot instantiate.
func TestInstancesCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.arrows")
	w, err := eventlog.Create(path, eventlog.Meta{}, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, site := range []string{"example.com/m/gen.Sum[int]", "example.com/m/gen.Sum[int]", "(*example.com/m/gen.Stack[string]).Push", "example.com/m/gen.Sum[main.money]", "example.com/m/gen.Plain"} {
		in := eventlog.Event{Stream: 1, Kind: eventlog.KindCallIn, Site: site}
		call := w.Append(&in)
		ret := eventlog.Event{Stream: 1, Kind: eventlog.KindReturnIn, Parent: call, Site: site}
		w.Append(&ret)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCmd(t, instancesCmd, "-harness", "example.com/m/zz_capture_replay", "-observe", "example.com/m/gen", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Count(out, ".CaptureInstance_Sum[int]()") != 1 || !strings.Contains(out, ".CaptureInstance_Stack_Push[string]()") || strings.Contains(out, "Plain") {
		t.Errorf("output:\n%s", out)
	}
	if !strings.Contains(errs, "gen.Sum[main.money]") || !strings.Contains(errs, "package main") {
		t.Errorf("stderr does not name the instantiation it cannot make: %s", errs)
	}
	if _, errs, code := runCmd(t, instancesCmd, path); code != 2 || !strings.Contains(errs, "usage") {
		t.Errorf("no -harness: exit %d, %s", code, errs)
	}
}
