package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probe"
)

// A service in flight mode serves many requests, keeping a ring of a few
// small segments, and then panics in observed code: before the process
// dies the ring is dumped (at most CAPTURE_KEEP segments, a DUMP note with
// the panic), every dumped segment replays alone, and the last one ends
// with the panic, which replay reproduces: with the bug fixed, that
// segment diverges there and the earlier ones still pass. A panic in a
// goroutine of observed code dumps likewise. probe.Dump and
// SIGUSR1 dump too, and the service goes on.
func TestFlightRecorderDumps(t *testing.T) {
	const observe = "example.com/flight/svc"
	work, mod, bin := buildTestService(t, "flight", observe, "./cmd/server", "server")
	const keep = 3
	run := func(dir, mode string) (string, []string, string) {
		t.Helper()
		cmd := exec.Command(bin, "6000", mode)
		cmd.Env = append(os.Environ(), probe.EnvLog+"="+filepath.Join(dir, "svc.arrow"), probe.EnvPolicy+"=block",
			probe.EnvCompression+"=none", probe.EnvMode+"=flight", probe.EnvRotate+"=48KiB", probe.EnvKeep+"=3")
		out, _ := cmd.CombinedOutput()
		notes, _ := filepath.Glob(filepath.Join(dir, "svc.dump-*", "DUMP"))
		if len(notes) != 1 {
			t.Fatalf("%s: dump notes %v, want one\n%s", mode, notes, out)
		}
		note, _ := os.ReadFile(notes[0])
		segs, _ := filepath.Glob(filepath.Join(filepath.Dir(notes[0]), "svc.seg*.arrow"))
		sort.Strings(segs)
		if len(segs) == 0 || len(segs) > keep {
			t.Fatalf("%s: dumped %v, want 1 to %d segments\n%s", mode, segs, keep, out)
		}
		return string(out), segs, string(note)
	}

	logs := filepath.Join(work, "logs")
	out, segs, note := run(logs, "panic")
	if !strings.Contains(out, "6000 served") || !strings.Contains(out, "nil pointer dereference") ||
		!strings.Contains(note, "reason: panic: runtime error: invalid memory address or nil pointer dereference") {
		t.Fatalf("the panic run:\n%s\nDUMP:\n%s", out, note)
	}
	if ring, _ := filepath.Glob(filepath.Join(logs, "svc.seg*.arrow")); len(segs) < 2 || len(ring) > keep {
		t.Fatalf("dumped %d segments (want at least 2 of 6000 requests), the ring holds %v (want at most %d)", len(segs), ring, keep)
	}
	for i, s := range segs {
		events, _, err := readAll(s)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 && !startsAtCheckpoint(events) {
			t.Errorf("the first dumped segment %s does not start at a checkpoint", s)
		}
		if last := events[len(events)-1]; i == len(segs)-1 && (last.Kind != eventlog.KindPanicOut || !strings.HasSuffix(last.Site, "svc.Handle")) {
			t.Errorf("the last dumped segment ends with %v %s, want the PANIC_OUT of svc.Handle", last.Kind, last.Site)
		}
	}
	dump := filepath.Dir(segs[0])
	t.Logf("dumped %d segments into %s:\n%s", len(segs), filepath.Base(dump), note)
	out, code := runCapture(t, mod, "replay", "-observe", observe, "-reports", filepath.Join(work, "reports"), dump)
	if code != 0 || strings.Count(out, "PASS ") != len(segs) {
		t.Fatalf("replay of the %d dumped segments: exit %d\n%s", len(segs), code, out)
	}

	// The bug fixed: the panic is not reproduced, and only the last
	// segment, which holds it, diverges.
	src := filepath.Join(mod, "svc", "svc.go")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	fixed := strings.Replace(string(b), `if path == "/crash" {`, `if path == "/crash" && s != nil {`, 1)
	if fixed == string(b) {
		t.Fatal("the fix does not apply")
	}
	if err := os.WriteFile(src, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	mreports := filepath.Join(work, "fixed-reports")
	out, _ = runCapture(t, mod, "replay", "-observe", observe, "-reports", mreports, dump)
	for i, s := range segs {
		r := readReport(t, filepath.Join(mreports, filepath.Base(s)+".json"))
		if want := i == len(segs)-1; (r.Verdict != "pass") != want {
			t.Errorf("with the bug fixed, segment %s: %s (diverges: want %v)\n%s", filepath.Base(s), r.Verdict, want, out)
		}
	}
	t.Logf("with the bug fixed:\n%s", out)
	if err := os.WriteFile(src, b, 0o644); err != nil {
		t.Fatal(err)
	}

	// A panic in a goroutine of observed code ends the process too: the
	// dump's last segment ends with it, and replay reproduces it.
	out, segs, note = run(filepath.Join(work, "go"), "gopanic")
	if !strings.Contains(note, "reason: panic: runtime error: invalid memory address or nil pointer dereference") {
		t.Fatalf("the goroutine's panic (dumped %v):\n%s\nDUMP:\n%s", segs, out, note)
	}
	if events, _, err := readAll(segs[len(segs)-1]); err != nil || events[len(events)-1].Kind != eventlog.KindPanicOut {
		t.Fatalf("the last dumped segment does not end with the goroutine's PANIC_OUT (%v)", err)
	}
	out, code = runCapture(t, mod, "replay", "-observe", observe, "-reports", filepath.Join(work, "go-reports"), filepath.Dir(segs[0]))
	if code != 0 || strings.Count(out, "PASS ") != len(segs) {
		t.Fatalf("replay of the %d segments dumped on the goroutine's panic: exit %d\n%s", len(segs), code, out)
	}
	r := readReport(t, filepath.Join(work, "go-reports", filepath.Base(segs[len(segs)-1])+".json"))
	if !strings.Contains(strings.Join(r.Notes, "\n"), "panic in a goroutine started by observed code") {
		t.Errorf("the last segment's replay did not reproduce the goroutine's panic: notes %q", r.Notes)
	}

	// probe.Dump from the program: the dump it returns replays, and the
	// service goes on to the end.
	out, segs, note = run(filepath.Join(work, "call"), "dump")
	if !strings.Contains(out, "6000 served") || !strings.Contains(note, "reason: asked by the server") ||
		!strings.Contains(out, fmt.Sprintf("dumped %d segments <nil>", len(segs))) {
		t.Fatalf("probe.Dump run (dumped %v):\n%s\nDUMP:\n%s", segs, out, note)
	}
	out, code = runCapture(t, mod, "replay", "-observe", observe, "-reports", filepath.Join(work, "call-reports"), filepath.Dir(segs[0]))
	if code != 0 || strings.Count(out, "PASS ") != len(segs) {
		t.Fatalf("replay of the %d segments probe.Dump wrote: exit %d\n%s", len(segs), code, out)
	}

	// SIGUSR1: a dump, and the service goes on to the end.
	if out, segs, note := run(filepath.Join(work, "signal"), "signal"); !strings.Contains(out, "6000 served") ||
		!strings.Contains(note, "reason: SIGUSR1") || strings.Contains(out, "no dump") {
		t.Errorf("SIGUSR1 run (dumped %v):\n%s\nDUMP:\n%s", segs, out, note)
	}
}

// SIGTERM in flight mode dumps the ring before it does what it would do
// without capture. A program with its own signal.Notify for SIGTERM gets
// it (twice: the delivery and the recorder's resend, see
// docs/capture-command.md) and goes on to its end; one without is ended by
// it, after the dump, whose segments replay and pass.
func TestFlightRecorderDumpsOnSignals(t *testing.T) {
	const observe = "example.com/flight/svc"
	work, mod, bin := buildTestService(t, "flight", observe, "./cmd/server", "server")
	run := func(mode string) (string, *exec.ExitError, []string, string) {
		t.Helper()
		dir := filepath.Join(work, mode)
		cmd := exec.Command(bin, "6000", mode)
		cmd.Env = append(os.Environ(), probe.EnvLog+"="+filepath.Join(dir, "svc.arrow"), probe.EnvPolicy+"=block",
			probe.EnvCompression+"=none", probe.EnvMode+"=flight", probe.EnvRotate+"=48KiB", probe.EnvKeep+"=3")
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("%s: %v", mode, err)
		}
		notes, _ := filepath.Glob(filepath.Join(dir, "svc.dump-*", "DUMP"))
		if len(notes) != 1 {
			t.Fatalf("%s: dump notes %v, want one\n%s", mode, notes, out)
		}
		note, _ := os.ReadFile(notes[0])
		segs, _ := filepath.Glob(filepath.Join(filepath.Dir(notes[0]), "svc.seg*.arrow"))
		return string(out), exit, segs, string(note)
	}

	out, exit, segs, note := run("sigterm")
	if exit != nil || !strings.Contains(out, "6000 served") || !strings.Contains(note, "reason: SIGTERM") ||
		strings.Contains(out, "no dump") || !strings.Contains(out, "SIGTERM handled 2 times") {
		t.Fatalf("the program handling SIGTERM (exit %v, dumped %v):\n%s\nDUMP:\n%s", exit, segs, out, note)
	}
	t.Logf("the program handling SIGTERM:\n%s", out)

	out, exit, segs, note = run("sigterm-default")
	if exit == nil || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM || strings.Contains(out, "not ended") ||
		!strings.Contains(note, "reason: SIGTERM") {
		t.Fatalf("the program without a handler: exit %v, want ended by SIGTERM after the dump (dumped %v):\n%s\nDUMP:\n%s", exit, segs, out, note)
	}
	out, code := runCapture(t, mod, "replay", "-observe", observe, filepath.Dir(segs[0]))
	if code != 0 || strings.Count(out, "PASS ") != len(segs) {
		t.Fatalf("replay of the %d segments dumped on SIGTERM: exit %d\n%s", len(segs), code, out)
	}
}

// startsAtCheckpoint reports whether events are those of a segment: the
// run's initialisation, then a checkpoint (or, the run's first segment,
// none at all).
func startsAtCheckpoint(events []eventlog.Event) bool {
	for _, e := range events {
		switch e.Kind {
		case eventlog.KindCheckpoint:
			return true
		case eventlog.KindCallIn:
			return false
		}
	}
	return false
}
