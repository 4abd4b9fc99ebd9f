package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probe"
)

// A service captured with a small CAPTURE_ROTATE writes several segments,
// each of which replays alone; with a planted mutation that changes every
// result from the 3000th deposit on, the segments before it pass, the one
// holding that deposit diverges exactly there, and every later one
// diverges at its first deposit. CAPTURE_KEEP bounds the files on disk.
func TestRotatedCaptureReplays(t *testing.T) {
	const observe = "example.com/rotate/ledger"
	work, mod, bin := buildTestService(t, "rotate", observe, "./cmd/ledger", "ledger")
	run := func(dir string, env ...string) []string {
		t.Helper()
		cmd := exec.Command(bin, "4000")
		cmd.Env = append(os.Environ(), probe.EnvLog+"="+filepath.Join(dir, "ledger.arrow"), probe.EnvPolicy+"=block",
			probe.EnvCompression+"=none", probe.EnvRotate+"=48KiB", "LEDGER_CURRENCY= EUR")
		cmd.Env = append(cmd.Env, env...)
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "4000 ops, total 23982 EUR") {
			t.Fatalf("capture run: %v\n%s", err, out)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "ledger.seg*.arrow"))
		sort.Strings(files)
		return files
	}
	logs := filepath.Join(work, "logs")
	segs := run(logs)
	if len(segs) < 3 {
		t.Fatalf("segments %v: want at least 3", segs)
	}
	for i, s := range segs {
		if want := fmt.Sprintf("ledger.seg%06d.arrow", i+1); filepath.Base(s) != want {
			t.Fatalf("segment %d is %s, want %s", i+1, filepath.Base(s), want)
		}
		// Every segment holds the run's package initialisation (its
		// os.Getenv), the later ones before their checkpoint.
		events, _, err := readAll(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(events) < 2 || events[0].Kind != eventlog.KindCallOut || events[0].Site != "os.Getenv" ||
			i > 0 && events[2].Kind != eventlog.KindCheckpoint {
			t.Fatalf("segment %d starts with %+v, want the initialisation's os.Getenv (and then its checkpoint)", i+1, events[:min(3, len(events))])
		}
	}

	if out, code := runCapture(t, mod, "stats", segs[1]); code != 0 || !strings.Contains(out, "rotation    segment=2 limit=48KiB deferred=0 failed=0") ||
		!strings.Contains(out, "segment     of run ") {
		t.Errorf("capture stats of segment 2: exit %d\n%s", code, out)
	}

	// Each segment alone, with the program as captured: all pass.
	reports := filepath.Join(work, "reports")
	out, code := runCapture(t, mod, "replay", "-observe", observe, "-reports", reports, logs)
	if code != 0 || strings.Count(out, "PASS ") != len(segs) {
		t.Fatalf("replay of %d segments: exit %d\n%s", len(segs), code, out)
	}

	// The mutant: deposits return one more from the 3000th on.
	src := filepath.Join(mod, "ledger", "ledger.go")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	mutated := strings.Replace(string(b), "a.balance += amount\n", "a.balance += amount + ops/3000\n", 1)
	if mutated == string(b) {
		t.Fatal("the mutation does not apply")
	}
	if err := os.WriteFile(src, []byte(mutated), 0o644); err != nil {
		t.Fatal(err)
	}
	mreports := filepath.Join(work, "mutant-reports")
	out, _ = runCapture(t, mod, "replay", "-observe", observe, "-reports", mreports, logs)
	deposits := 0 // Deposit returns replayed before the segment's
	first := -1   // the first segment that diverged
	for i, s := range segs {
		r := readReport(t, filepath.Join(mreports, filepath.Base(s)+".json"))
		events, _, err := readAll(s)
		if err != nil {
			t.Fatal(err)
		}
		if first < 0 && r.Verdict == "pass" {
			deposits += countDeposits(events, ^uint64(0))
			continue
		}
		d := r.Divergence
		if d == nil || d.Reason != "different results" || !strings.Contains(d.Expected, "ledger.Deposit") {
			t.Fatalf("segment %d: verdict %s, divergence %+v; want a Deposit with different results\n%s", i+1, r.Verdict, d, out)
		}
		if first < 0 {
			first = i
			if n := deposits + countDeposits(events, d.Seq); n != 2999 {
				t.Errorf("segment %d diverged after deposit %d of the run, want after 2999", i+1, n)
			}
			continue
		}
		if n := countDeposits(events, d.Seq); n != 0 {
			t.Errorf("segment %d diverged after %d of its deposits, want at its first", i+1, n)
		}
	}
	if first < 1 {
		t.Fatalf("first diverging segment %d of %d: want some that pass before it\n%s", first+1, len(segs), out)
	}
	t.Logf("%d segments; the mutant diverges in segments %d..%d", len(segs), first+1, len(segs))

	// CAPTURE_KEEP=2: the two newest segments stay.
	kept := run(filepath.Join(work, "kept"), probe.EnvKeep+"=2")
	var nums []int
	for _, k := range kept {
		var n int
		if _, err := fmt.Sscanf(filepath.Base(k), "ledger.seg%06d.arrow", &n); err == nil {
			nums = append(nums, n)
		}
	}
	if len(nums) != 2 || nums[0] < 2 || nums[1] != nums[0]+1 {
		t.Errorf("with %s=2: %v on disk, want the newest 2 of at least 3 segments", probe.EnvKeep, kept)
	}
}

// countDeposits counts the Deposit returns among events before seq.
func countDeposits(events []eventlog.Event, seq uint64) int {
	n := 0
	for _, e := range events {
		if e.Seq < seq && e.Kind == eventlog.KindReturnIn && strings.HasSuffix(e.Site, "ledger.Deposit") {
			n++
		}
	}
	return n
}

// buildTestService copies the test program testdata/<name> into a
// temporary module and builds its package pkg with capture, observing
// observe, as the field-mode tests (rotation, sampling, the flight
// recorder) do: it returns the scratch directory, the module's copy and
// the binary, named bin. Skipped under -short.
func buildTestService(t *testing.T, name, observe, pkg, bin string) (work, mod, binPath string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	work = t.TempDir()
	mod = filepath.Join(work, "module")
	copyDir(t, filepath.Join(repoRoot(t), "testdata", name), mod)
	binPath = filepath.Join(work, bin)
	if out, code := runCapture(t, mod, "build", "-observe", observe, "-o", binPath, pkg); code != 0 {
		t.Fatalf("capture build: exit %d\n%s", code, out)
	}
	return work, mod, binPath
}
