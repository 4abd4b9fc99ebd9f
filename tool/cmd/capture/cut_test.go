package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

func cutCmd(args []string, o, e *bytes.Buffer) int { return runCut(args, o, e) }

// checkpointValues is a CHECKPOINT event's values with initialisation
// ending at initEnd and no state.
func checkpointValues(initEnd uint64) []byte {
	b := value.AppendUint(nil, 1)
	b = value.AppendUint(b, initEnd)
	b = value.AppendUint(b, 0) // object counter
	b = value.AppendUint(b, 0) // variables
	return value.AppendUint(b, 0)
}

// writeCheckpointedLog writes a run: initialisation (an init outcall, and
// an incall an in-package test file's initialiser made), then incalls with
// a checkpoint after each but the second (refused), one incall's callback
// naming as its origin an outcall before the last checkpoint.
func writeCheckpointedLog(t *testing.T, path string) {
	t.Helper()
	w, err := eventlog.Create(path, eventlog.Meta{ObservedPackages: []string{"example.com/p"}, RunID: "run1"}, eventlog.Options{Policy: eventlog.Block})
	if err != nil {
		t.Fatal(err)
	}
	add := func(stream uint32, kind eventlog.Kind, parent uint64, site string, vals []byte) uint64 {
		return w.Append(&eventlog.Event{Stream: stream, Kind: kind, Parent: parent, Site: site, Values: vals})
	}
	add(0, eventlog.KindCallOut, 0, "os.Getenv", nil)                                                                                    // 1
	add(0, eventlog.KindReturnOut, 1, "os.Getenv", nil)                                                                                  // 2
	add(0, eventlog.KindCallIn, 0, "example.com/p.Init", nil)                                                                            // 3: a test file's initialiser
	add(0, eventlog.KindReturnIn, 3, "example.com/p.Init", nil)                                                                          // 4
	add(1, eventlog.KindCallIn, 0, "example.com/p.A", nil)                                                                               // 5
	add(1, eventlog.KindReturnIn, 5, "example.com/p.A", nil)                                                                             // 6
	add(1, eventlog.KindCheckpoint, 0, "checkpoint", checkpointValues(4))                                                                // 7
	add(1, eventlog.KindCallIn, 0, "example.com/p.B", nil)                                                                               // 8
	add(1, eventlog.KindCallOut, 8, "net/http.Handle", nil)                                                                              // 9: passes a callback
	add(1, eventlog.KindReturnOut, 9, "net/http.Handle", nil)                                                                            // 10
	add(1, eventlog.KindReturnIn, 8, "example.com/p.B", nil)                                                                             // 11
	add(1, eventlog.KindNoCheckpoint, 0, "checkpoint", value.AppendString(nil, "1 goroutine(s) started by observed code still running")) // 12
	add(1, eventlog.KindCallIn, 0, "example.com/p.C", nil)                                                                               // 13
	add(1, eventlog.KindReturnIn, 13, "example.com/p.C", nil)                                                                            // 14
	add(1, eventlog.KindCheckpoint, 0, "checkpoint", checkpointValues(4))                                                                // 15
	add(2, eventlog.KindCallIn, 9, "callback example.com/p.handler", nil)                                                                // 16: origin 9, before the checkpoint
	add(2, eventlog.KindReturnIn, 16, "callback example.com/p.handler", nil)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func readCut(t *testing.T, path string) ([]eventlog.Event, eventlog.Meta) {
	t.Helper()
	events, meta, err := readAll(path)
	if err != nil {
		t.Fatal(err)
	}
	return events, meta
}

func TestCutAtCheckpoint(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "run.arrow")
	writeCheckpointedLog(t, log)

	// By event: the last checkpoint at or before seq 14 is the one at 7.
	out := filepath.Join(dir, "a.arrow")
	stdout, errs, code := runCmd(t, cutCmd, "-from", "14", "-o", out, log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := "from its event 7 (checkpoint 1 of"; !strings.Contains(stdout, want) {
		t.Errorf("output %q lacks %q", stdout, want)
	}
	events, meta := readCut(t, out)
	if meta.RunID != "run1" || meta.SegmentFrom != 7 || meta.FormatVersion != eventlog.FormatVersion || !meta.Status.Closed {
		t.Errorf("metadata %+v", meta)
	}
	var sites []string
	for i, e := range events {
		if e.Seq != uint64(i+1) {
			t.Errorf("event %d has seq %d", i, e.Seq)
		}
		sites = append(sites, e.Kind.String()+" "+e.Site)
	}
	// The init outcall, not the test initialiser's incall, nor A (before
	// the checkpoint); then everything after it.
	want := []string{"CALL_OUT os.Getenv", "RETURN_OUT os.Getenv", "CHECKPOINT checkpoint",
		"CALL_IN example.com/p.B", "CALL_OUT net/http.Handle", "RETURN_OUT net/http.Handle", "RETURN_IN example.com/p.B",
		"NO_CHECKPOINT checkpoint", "CALL_IN example.com/p.C", "RETURN_IN example.com/p.C", "CHECKPOINT checkpoint",
		"CALL_IN callback example.com/p.handler", "RETURN_IN callback example.com/p.handler"}
	if strings.Join(sites, "|") != strings.Join(want, "|") {
		t.Fatalf("segment events:\n%s\nwant\n%s", strings.Join(sites, "\n"), strings.Join(want, "\n"))
	}
	if events[1].Parent != 1 || events[4].Parent != 4 || events[11].Parent != 5 {
		t.Errorf("parents not renumbered: %d %d %d", events[1].Parent, events[4].Parent, events[11].Parent)
	}

	// By number, and a segment of the segment keeps the run's numbering.
	out2 := filepath.Join(dir, "b.arrow")
	if _, errs, code := runCmd(t, cutCmd, "-from", "checkpoint:2", "-o", out2, out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	events2, meta2 := readCut(t, out2)
	if meta2.SegmentFrom != 15 || len(events2) != 5 {
		t.Errorf("segment of a segment: from %d, %d events", meta2.SegmentFrom, len(events2))
	}
	// The callback's origin outcall is before this checkpoint: 0.
	if cb := events2[3]; cb.Site != "callback example.com/p.handler" || cb.Parent != 0 {
		t.Errorf("callback %+v: want parent 0", cb)
	}

	// -to ends at the last quiescent point at or before it.
	out3 := filepath.Join(dir, "c.arrow")
	if _, errs, code := runCmd(t, cutCmd, "-from", "checkpoint:1", "-to", "13", "-o", out3, log); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if events3, _ := readCut(t, out3); events3[len(events3)-1].Kind != eventlog.KindNoCheckpoint {
		t.Errorf("-to 13 ends at %v, want the NO_CHECKPOINT at 12", events3[len(events3)-1])
	}

	// Before the first checkpoint: none to start at; the refusals are named.
	_, errs, code = runCmd(t, cutCmd, "-from", "5", "-o", filepath.Join(dir, "d.arrow"), log)
	if code != 1 || !strings.Contains(errs, "has no checkpoint at or before event 5") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if _, errs, code := runCmd(t, cutCmd, "-from", "checkpoint:3", "-o", filepath.Join(dir, "e.arrow"), log); code != 1 || !strings.Contains(errs, "has no checkpoint 3 (it has 2") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if _, _, code := runCmd(t, cutCmd, "-from", "x", "-o", filepath.Join(dir, "f.arrow"), log); code != 1 {
		t.Errorf("-from x: exit %d", code)
	}
	if _, _, code := runCmd(t, cutCmd, "-from", "1", log); code != 2 {
		t.Errorf("no -o: exit %d, want 2", code)
	}

	// stats: checkpoints taken and refused with the reason; the segment.
	stdout, _, code = runCmd(t, statsCmd, log, out)
	if code != 0 || !strings.Contains(stdout, "checkpoints 2 taken, 1 refused") ||
		!strings.Contains(stdout, "1  refused: 1 goroutine(s) started by observed code still running") ||
		!strings.Contains(stdout, "segment     of run run1, from its event 7") {
		t.Errorf("stats: exit %d\n%s", code, stdout)
	}
}
