package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/probe"
)

// TestLockOrderWithoutTurns: the lockpool corpus program (whose replays
// with lock turns the corpus test requires to pass, 20 times, race
// detector on) captured with lock turns off (CAPTURE_LOCK_TURNS=off, a log
// like those written before them) diverges in replay: its workers add to
// the pool in the reverse order when nothing orders their acquisitions
// (as the example shop's loadgen order pool did). The lock order is the only
// thing the two logs differ in.
func TestLockOrderWithoutTurns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	mod := filepath.Join(t.TempDir(), "module")
	copyDir(t, filepath.Join(repoRoot(t), "testdata", "corpus", "lockpool"), mod)
	bin := filepath.Join(t.TempDir(), "lockpool")
	const observe = "example.com/lockpool/orders"
	if out, code := runCapture(t, mod, "build", "-observe", observe, "-o", bin, "./cmd/lockpool"); code != 0 {
		t.Fatalf("capture build: exit %d\n%s", code, out)
	}
	// The workers' order differs between capture and replay by timing (the
	// server's answers spread out in the capture, at once in replay), which
	// a loaded machine can upset in the capture too: a few fresh captures,
	// each replayed twice, make a lucky schedule irrelevant.
	for attempt := range 5 {
		log := filepath.Join(t.TempDir(), "off.arrow")
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), probe.EnvLog+"="+log, probe.EnvLockTurns+"=off", probe.EnvPolicy+"=block")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("capture run: %v\n%s", err, out)
		}
		for i := range 2 {
			out, code := runCapture(t, mod, "replay", "-observe", observe, log)
			if code == 1 && strings.Contains(out, "DIVERGED") {
				t.Logf("capture %d, replay %d without lock turns: %s", attempt, i, out)
				return
			}
			if code != 0 {
				t.Fatalf("replay: exit %d\n%s", code, out)
			}
		}
	}
	t.Fatal("5 captures without lock turns, each replayed twice, all passed: the program no longer depends on the lock order")
}
