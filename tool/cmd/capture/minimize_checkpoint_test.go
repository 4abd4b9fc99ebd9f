package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probe"
	"github.com/rules-capture/rules_capture/tool/minimize"
)

// minimizeRun is what one capture minimize run printed.
type minimizeRun struct {
	incalls, events, replays int
	took                     string
	from                     uint64 // the checkpoint the result starts at (0: none)
	min                      *minimize.Log
}

var summaryLine = regexp.MustCompile(`: \d+ -> (\d+) incalls, \d+ -> (\d+) events, (\d+) replays, (\S+)\n`)
var fromLine = regexp.MustCompile(`from the checkpoint at seq (\d+): the minimal log is a segment`)

func minimizeRunOf(t *testing.T, tree, observe, out, log, test string, flags ...string) minimizeRun {
	t.Helper()
	args := append(append([]string{"minimize", "-observe", observe}, flags...), "-o", out, log)
	text, code := runCapture(t, tree, args...)
	m := summaryLine.FindStringSubmatch(text)
	if code != 0 || m == nil {
		t.Fatalf("capture minimize %s: exit %d\n%s", strings.Join(flags, " "), code, text)
	}
	var r minimizeRun
	r.incalls, _ = strconv.Atoi(m[1])
	r.events, _ = strconv.Atoi(m[2])
	r.replays, _ = strconv.Atoi(m[3])
	r.took = m[4]
	if f := fromLine.FindStringSubmatch(text); f != nil {
		r.from, _ = strconv.ParseUint(f[1], 10, 64)
	}
	t.Logf("capture minimize %s:\n%s", strings.Join(flags, " "), lastLines(text, 8))
	min, err := minimize.Read(filepath.Join(out, "testdata", "repro", test+".arrow"))
	if err != nil {
		t.Fatal(err)
	}
	r.min = min
	return r
}

// TestMinimizeFromCheckpoint: the planted failure of TestMinimizePlanted,
// captured with a checkpoint at every quiescent point (the stock package's
// state is maps of plain values: every one is taken). The latest
// checkpoints before the failing Reserve("late-x", "X", 8) hold the state
// the correct code computed, so their segments pass on the buggy code; the
// search goes back until a segment holds the leaking Cancel("bulk-x"),
// whose checkpoint holds the bulk reservation and the restock it needs.
// Minimizing that segment gives fewer incalls, events and replays than the
// whole log (-whole-log: TestMinimizePlanted's four incalls); the
// segment's generated test fails on the buggy code and passes on the
// correct one like any other.
func TestMinimizeFromCheckpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	const observe = "example.com/planted/stock"
	work, good, buggy := plantedTrees(t, "good", "buggy", filepath.Join("stock", "stock.go"), "\t\tbulk[h.sku] -= h.n\n", "")
	log := filepath.Join(work, "logs", "day.arrow")
	if out, err := captureField(t, good, observe, "./cmd/shopfloor", filepath.Join(work, "shopfloor"), log, probe.EnvCheckpointEvery+"=1"); err != nil || !strings.Contains(string(out), "400 calls, 0 failed") {
		t.Fatalf("capture run: %v\n%s", err, out)
	}
	orig, err := minimize.Read(log)
	if err != nil {
		t.Fatal(err)
	}
	cps := 0
	for _, e := range orig.Events {
		if e.Kind == eventlog.KindCheckpoint {
			cps++
		}
	}
	if cps != 400 {
		t.Fatalf("the log has %d checkpoints, want one after each of its 400 calls", cps)
	}

	whole := minimizeRunOf(t, buggy, observe, filepath.Join(work, "whole"), log, "TestReproReserve", "-baseline", good, "-whole-log")
	out := filepath.Join(work, "out")
	seg := minimizeRunOf(t, buggy, observe, out, log, "TestReproReserve", "-baseline", good)
	t.Logf("%d incalls, %d events (%d checkpoints): whole log -> %d incalls, %d events, %d replays, %s; from the checkpoint at seq %d -> %d incalls, %d events, %d replays, %s",
		len(orig.Units), len(orig.Events), cps, whole.incalls, whole.events, whole.replays, whole.took, seg.from, seg.incalls, seg.events, seg.replays, seg.took)

	for _, e := range whole.min.Events {
		if e.Kind == eventlog.KindCheckpoint || e.Kind == eventlog.KindNoCheckpoint {
			t.Errorf("-whole-log's minimal log keeps %s at seq %d", e.Kind, e.Seq)
		}
	}
	if whole.from != 0 || whole.incalls > 6 {
		t.Errorf("-whole-log: from %d, %s; want a handful of incalls of the whole log", whole.from, topCalls(whole.min))
	}
	calls := strings.Join(topCalls(seg.min), " ")
	if seg.from == 0 || seg.min.Meta.SegmentFrom != seg.from || !strings.Contains(calls, `Cancel("bulk-x")`) || !strings.Contains(calls, `Reserve("late-x", "X", 8)`) {
		t.Fatalf("from a checkpoint: from %d (metadata %d), %s; want a segment with the cancellation and the failing reservation", seg.from, seg.min.Meta.SegmentFrom, calls)
	}
	if seg.incalls >= whole.incalls || seg.replays >= whole.replays {
		t.Errorf("from the checkpoint: %d incalls, %d replays; the whole log: %d, %d; want fewer of both", seg.incalls, seg.replays, whole.incalls, whole.replays)
	}
	n := 0
	for _, e := range seg.min.Events {
		if e.Kind == eventlog.KindCheckpoint || e.Kind == eventlog.KindNoCheckpoint {
			n++
			if e.Kind != eventlog.KindCheckpoint || e.Seq >= seg.min.Units[0].First {
				t.Errorf("the segment's %s at seq %d: want its one CHECKPOINT, before the calls", e.Kind, e.Seq)
			}
		}
	}
	if n != 1 {
		t.Errorf("the segment keeps %d checkpoint events, want 1", n)
	}
	runRepro(t, out, "stock", "TestReproReserve", buggy, good, "DIVERGED")
}

// TestMinimizeFailureChoice: a log that records two panics of the observed
// code, each recovered by the caller (tool/minimize/testdata/planted/cmd/retry:
// the tombstone bug of TestMinimizePanic, hit by the night jobs "night-x"
// at call 250 and "night-y" at call 300). By default the failure is the
// first panic, as for a log that diverges it is the first divergence;
// -failure 2 picks the second, and -failure 3 is refused.
func TestMinimizeFailureChoice(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	const observe = "example.com/planted/queue"
	work, buggy, _ := plantedTrees(t, "buggy", "fixed", filepath.Join("queue", "queue.go"), "\tif !ok {\n\t\treturn -1", "\tif !ok || p == nil {\n\t\treturn -1")
	log := filepath.Join(work, "logs", "shift.arrow")
	if out, err := captureField(t, buggy, observe, "./cmd/retry", filepath.Join(work, "retry"), log); err != nil || !strings.Contains(string(out), "2 starts panicked") {
		t.Fatalf("capture run: %v\n%s", err, out)
	}
	orig, err := minimize.Read(log)
	if err != nil {
		t.Fatal(err)
	}
	if ps := orig.RecordedPanics(); len(ps) != 2 {
		t.Fatalf("the log records %d panics, want 2", len(ps))
	}
	first := minimizeRunOf(t, buggy, observe, filepath.Join(work, "first"), log, "TestReproStart")
	second := minimizeRunOf(t, buggy, observe, filepath.Join(work, "second"), log, "TestReproStart", "-failure", "2")
	for _, tc := range []struct {
		run  minimizeRun
		want string
	}{
		{first, `Submit("night-x", 3) Cancel("night-x") Start("night-x")`},
		{second, `Submit("night-y", 5) Cancel("night-y") Start("night-y")`},
	} {
		if got := strings.Join(topCalls(tc.run.min), " "); got != tc.want {
			t.Errorf("minimal log %s, want %s", got, tc.want)
		}
	}
	text, code := runCapture(t, buggy, "minimize", "-observe", observe, "-failure", "3", "-o", filepath.Join(work, "third"), log)
	if code != 1 || !strings.Contains(text, "-failure 3: the log records 2 panic(s) of the observed code") {
		t.Errorf("-failure 3: exit %d, want 1 and the count of panics:\n%s", code, text)
	}
}
