package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/segment"
)

// rotatedSegments are the checked-in files of one rotated capture of the
// shop (CAPTURE_ROTATE; lab/scripts/shop_rotation.sh --check-in), beside
// the whole-run logs. //examples/shop:replay_tests replays every log of
// testdata/capture alone, each in its own process, so these are replayed
// starting at their checkpoints, without the rest of their run: if replay
// from a rotated segment stopped working, that test would fail.
const rotatedSegments = "testdata/capture/shop_rotated_seg*.arrow"

var rotationSegment = regexp.MustCompile(`^segment=([0-9]+) `)

// TestCheckedInRotatedSegments keeps the replay test's rotated segments
// what it relies on them to be: at least two files of one run, each a
// closed, complete log that the recorder started in the middle of the run
// (its metadata names the run, the run's event it starts at and its
// segment number, which the file name repeats) and that holds the run's
// package initialisation, then the checkpoint, then the events after it.
// A segment that lost its checkpoint, or a set of logs without segments,
// would leave the replay test passing without replaying from a checkpoint.
func TestCheckedInRotatedSegments(t *testing.T) {
	paths, err := filepath.Glob(rotatedSegments)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 2 {
		t.Fatalf("%d files match %s, want at least 2 rotated segments of one run (lab/scripts/shop_rotation.sh --check-in 3)", len(paths), rotatedSegments)
	}
	run := ""
	for _, p := range paths {
		r, err := eventlog.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		var (
			events     uint64
			checkpoint uint64 // seq of the first CHECKPOINT
			initEnd    uint64
			after      uint64 // events after the checkpoint
		)
		for {
			ev, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			events++
			if ev.Seq != events {
				t.Fatalf("%s: event %d has seq %d: a segment numbers its events from 1", p, events, ev.Seq)
			}
			switch {
			case checkpoint == 0 && ev.Kind == eventlog.KindCheckpoint:
				checkpoint = ev.Seq
				if initEnd, err = segment.InitEnd(ev.Values); err != nil {
					t.Fatalf("%s: checkpoint at seq %d: %v", p, ev.Seq, err)
				}
			case checkpoint != 0:
				after++
			}
		}
		meta := r.Meta()
		r.Close()
		if checkpoint == 0 {
			t.Fatalf("%s: no CHECKPOINT: not a segment that starts at one", p)
		}
		if checkpoint != initEnd+1 {
			t.Errorf("%s: the first checkpoint is event %d, want %d: right after the %d events of package initialisation", p, checkpoint, initEnd+1, initEnd)
		}
		if after == 0 {
			t.Errorf("%s: no event after its checkpoint", p)
		}
		if !meta.Status.Closed || meta.Status.Dropped != 0 || meta.Status.Events != events {
			t.Errorf("%s: status %+v with %d events read: want a closed log that dropped nothing", p, meta.Status, events)
		}
		if meta.SegmentFrom == 0 {
			t.Errorf("%s: its metadata names no event of the run it starts at: a whole run, not a segment", p)
		}
		m := rotationSegment.FindStringSubmatch(meta.Rotation)
		if m == nil {
			t.Fatalf("%s: rotation metadata %q: not a file of a rotated log", p, meta.Rotation)
		}
		n, _ := strconv.Atoi(m[1])
		if n < 2 {
			t.Errorf("%s: segment %d: the first file of a run starts at process start, not at a checkpoint", p, n)
		}
		if want := fmt.Sprintf("shop_rotated_seg%06d.arrow", n); filepath.Base(p) != want {
			t.Errorf("%s: its metadata says segment %d (%s)", p, n, want)
		}
		if run == "" {
			run = meta.RunID
		} else if meta.RunID != run {
			t.Errorf("%s: run %s, the others are of run %s", p, meta.RunID, run)
		}
	}
}
