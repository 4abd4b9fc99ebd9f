package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// hostileModule writes a module whose observed package gen has generic
// incalls, and returns its directory.
func hostileModule(t *testing.T) string {
	mod := t.TempDir()
	writeModule(t, mod, map[string]string{
		"go.mod": "module example.com/hs\n\ngo 1.26\n",
		"gen/gen.go": `package gen

// Stack is a stack of T.
type Stack[T any] struct{ items []T }

// Push pushes v.
func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

// Count counts xs.
func Count[T any](xs []T) int { return len(xs) }
`,
	})
	return mod
}

// writeSiteLog writes a log whose only incall has site.
func writeSiteLog(t *testing.T, name, site string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	w, err := eventlog.Create(path, eventlog.Meta{}, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := eventlog.Event{Stream: 1, Kind: eventlog.KindCallIn, Site: site}
	call := w.Append(&in)
	ret := eventlog.Event{Stream: 1, Kind: eventlog.KindReturnIn, Parent: call, Site: site}
	w.Append(&ret)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHostileLogSites: replay builds its harness from the sites of its logs,
// and a log is a file anyone may hand it. A site that smuggles statements
// into the harness (a method name with a newline, statements, and an
// import made by a type argument) is refused, naming the log and the site:
// nothing is built from it and the statements never run. A site whose type
// argument names a module the build does not have is not imported (no
// download, no init of another module), only reported.
func TestHostileLogSites(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	mod := hostileModule(t)
	marker := filepath.Join(t.TempDir(), "marker")
	// With the sites pasted into the harness, this became
	//	_i1.CaptureInstance_Stack_Push[_i0.File]()
	//	_i0.WriteFile("…/marker", nil, 0o644)
	//	_i1.CaptureInstance_Stack_Push[_i0.File]()
	// with _i0 "os", run by the harness's init.
	inject := "(*example.com/hs/gen.Stack[os.File]).Push[_i0.File]()\n\t_i0.WriteFile(" + strconv.Quote(marker) + ", nil, 0o644)\n\t_i1.CaptureInstance_Stack_Push"
	injectLog := writeSiteLog(t, "inject.arrow", inject)
	evil := "example.com/hs/gen.Count[example.com/evil.T]"
	evilLog := writeSiteLog(t, "evil.arrow", evil)
	// No fetch may happen: GOPROXY=off here too, so that a replay that
	// tried one fails rather than reaching the network.
	env := []string{"GOPROXY=off", "GOFLAGS=-mod=mod -buildvcs=false"}

	out, code := runCaptureEnv(t, mod, env, "replay", "-v", "-observe", "example.com/hs/gen", injectLog)
	if code == 0 {
		t.Errorf("replay of the injecting log passed:\n%s", out)
	}
	if want := "log " + injectLog + ": site " + strconv.Quote(inject) + `: not a Go identifier "Push[_i0.File]()\n`; !strings.Contains(out, want) || !strings.Contains(out, "the log may be corrupt or hostile; replay does not build code from it") {
		t.Errorf("replay does not refuse the log naming it and the site (want %q):\n%s", want, out)
	}
	if strings.Contains(out, "+ go ") {
		t.Errorf("replay ran the go command for a refused log:\n%s", out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("the statements of the site ran: %s exists\n%s", marker, out)
	}

	out, _ = runCaptureEnv(t, mod, env, "replay", "-observe", "example.com/hs/gen", evilLog)
	if want := "log " + evilLog + ": cannot instantiate " + evil + ": the replay build does not contain example.com/evil"; !strings.Contains(out, want) {
		t.Errorf("replay does not say it cannot instantiate %s (want %q):\n%s", evil, want, out)
	}
	for _, fetch := range []string{"GOPROXY", "module lookup", "go: downloading", "go: finding", "example.com/evil@"} {
		if strings.Contains(out, fetch) {
			t.Errorf("replay tried to fetch a module (%q):\n%s", fetch, out)
		}
	}

	for _, c := range []struct{ log, site, want string }{
		{injectLog, inject, `not a Go identifier "Push[_i0.File]()\n`},
		{writeSiteLog(t, "call.arrow", "example.com/hs/gen.Count[int]()\n\tpanic(1)\n\t_ = x[int]"), "example.com/hs/gen.Count[int]()\n\tpanic(1)\n\t_ = x[int]", "unexpected text after the type arguments"},
	} {
		file := filepath.Join(t.TempDir(), "instances.go")
		_, errs, code := runCmd(t, instancesCmd, "-harness", "example.com/hs/zz_capture_replay", "-observe", "example.com/hs/gen", "-o", file, c.log)
		if want := "capture instances: log " + c.log + ": site " + strconv.Quote(c.site) + ": "; code != 1 || !strings.Contains(errs, want) || !strings.Contains(errs, c.want) {
			t.Errorf("capture instances: exit %d, %s; want 1 and %q", code, errs, want+c.want)
		}
		if _, err := os.Stat(file); err == nil {
			t.Errorf("capture instances wrote %s for a hostile log", file)
		}
	}
	o, errs, code := runCmd(t, instancesCmd, "-harness", "example.com/hs/zz_capture_replay", "-observe", "example.com/hs/gen", evilLog)
	if code != 0 || strings.Contains(o, "evil") || !strings.Contains(errs, "cannot instantiate "+evil) {
		t.Errorf("capture instances: exit %d, output %s, stderr %s; want the site skipped, not imported", code, o, errs)
	}
}
