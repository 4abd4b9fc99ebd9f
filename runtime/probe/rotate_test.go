package probe

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probectl"
	segcut "github.com/rules-capture/rules_capture/runtime/segment"
)

// withRotation captures, with checkpoints on the test's state
// (withCheckpointsB), into a rotated log in a temporary directory, under
// the environment env (EnvRotate, EnvKeep) and a clock the test moves. It
// returns the log's stem (segments are stem.seg000001.arrow...) and the
// clock.
func withRotation(t testing.TB, env map[string]string) (string, *time.Time) {
	t.Helper()
	withCheckpointsB(t)
	CaptureTo(nil) // to the file, not withCheckpointsB's slice
	// Turn counters that earlier tests of the package left would refuse
	// every checkpoint.
	locks, chans := lockNumbers.Load(), turnChans.next.Load()
	lockNumbers.Store(0)
	turnChans.next.Store(0)
	t.Cleanup(func() {
		lockNumbers.Store(locks)
		turnChans.next.Store(chans)
	})
	every := ckpt.every
	ckpt.every = 0 // checkpoints only where a segment starts
	clock := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	oldNow := rotNow
	rotNow = func() time.Time { return clock }
	if err := configureRotation(func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	opts := eventlog.Options{Policy: eventlog.Block, Compression: eventlog.Uncompressed}
	stem := filepath.Join(t.TempDir(), "svc")
	if _, err := CaptureWith(firstSegment(stem+".arrow", opts), opts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		Close()
		rotNow = oldNow
		ckpt.every = every
		ckpt.initEnd, ckpt.points, ckpt.taken, ckpt.refused = 0, 0, 0, 0
		rot.on, rot.maxBytes, rot.every, rot.keep, rot.stem = false, 0, 0, 0, ""
		rot.n, rot.due, rot.lastCp, rot.init, rot.haveInit = 0, false, eventlog.Event{}, nil, false
		rot.meta, rot.runFrom, rot.fileCp, rot.broken = eventlog.Meta{}, 0, 0, ""
		rot.stats, rot.files, rot.limit, rot.deferred, rot.failed = RotationStats{}, nil, "", 0, 0
	})
	return stem, &clock
}

// segmentFiles returns the segments of the log stem on disk, in order.
func segmentFiles(t *testing.T, stem string) []string {
	t.Helper()
	files, err := filepath.Glob(stem + ".seg*.arrow")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// refusals returns the reasons of the NO_CHECKPOINT events in the log
// being written.
func refusals(t *testing.T) []string {
	t.Helper()
	_ = rec.w.Flush()
	events, _ := readLog(t, rec.path)
	var why []string
	for _, e := range events {
		if e.Kind == eventlog.KindNoCheckpoint {
			r, _ := segcut.NoCheckpointReason(e.Values)
			why = append(why, r)
		}
	}
	return why
}

func readLog(t *testing.T, path string) ([]eventlog.Event, eventlog.Meta) {
	t.Helper()
	r, err := eventlog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var events []eventlog.Event
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		c := *e
		c.Values = append([]byte(nil), e.Values...)
		events = append(events, c)
	}
	return events, r.Meta()
}

// A time limit rotates at the first quiescent point after it: every
// segment is a closed log of the run that starts with the checkpoint the
// previous one ends with, says where in the run it starts, and counts its
// events from 1; a refused checkpoint defers the rotation to the next
// quiescent point, and a next file that cannot be created leaves the
// current one going with nothing lost.
func TestRotateByTime(t *testing.T) {
	stem, clock := withRotation(t, map[string]string{EnvRotate: "1m"})
	site := &Site{Name: "example.com/ckpt.Inc", Pos: "ckpt/ckpt.go:1"}
	inc := func() {
		ckptCount++
		ckptIncall(t, site, nil)
	}
	inc()
	inc()
	if got := segmentFiles(t, stem); len(got) != 1 || rot.stats.Segments != 1 {
		t.Fatalf("rotated before the limit: %v", got)
	}
	// Past the limit, but a goroutine of observed code is alive: no
	// checkpoint, no rotation.
	*clock = clock.Add(time.Minute)
	liveGo.Add(1)
	inc()
	liveGo.Add(-1)
	if st := Rotation(); st.Deferred != 1 || st.Segments != 1 {
		t.Fatalf("after a refused checkpoint past the limit: %+v, want 1 deferral and 1 segment; refusals %q", st, refusals(t))
	}
	// The next file exists already: it cannot be created, the current one
	// goes on.
	blocker := segmentPath(stem, 2)
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	inc()
	if st := Rotation(); st.Failed != 1 || st.Segments != 1 || !strings.Contains(st.LastErr, "already exists") {
		t.Fatalf("with the next segment's file in the way: %+v; refusals %q", st, refusals(t))
	}
	os.Remove(blocker)
	inc() // rotates: segment 2 starts with this quiescent point's checkpoint
	inc()
	*clock = clock.Add(59 * time.Second)
	inc() // not yet: the limit runs from segment 2's start
	*clock = clock.Add(time.Second)
	inc() // segment 3
	Close()

	files := segmentFiles(t, stem)
	if len(files) != 3 {
		t.Fatalf("segments %v, want 3", files)
	}
	var run string
	var runSeq uint64 // seq in the run of the last event seen
	for i, f := range files {
		events, meta := readLog(t, f)
		if !meta.Status.Closed || meta.Status.Dropped != 0 {
			t.Errorf("%s: status %+v, want closed with nothing dropped", f, meta.Status)
		}
		// Segment 2 started after one refused checkpoint and one file
		// that could not be created, segment 3 at once.
		want := []string{"segment=1 limit=1m deferred=0 failed=0", "segment=2 limit=1m deferred=1 failed=1", "segment=3 limit=1m deferred=0 failed=0"}[i]
		if meta.Rotation != want {
			t.Errorf("%s: rotation metadata %q, want %q", f, meta.Rotation, want)
		}
		if i == 0 {
			run = meta.RunID
			if meta.SegmentFrom != 0 {
				t.Errorf("the first segment says it starts at %d", meta.SegmentFrom)
			}
		} else {
			if meta.RunID != run {
				t.Errorf("%s: run %s, want %s", f, meta.RunID, run)
			}
			if meta.SegmentFrom != runSeq {
				t.Errorf("%s starts at seq %d of the run, the previous segment ended at %d", f, meta.SegmentFrom, runSeq)
			}
			if events[0].Kind != eventlog.KindCheckpoint {
				t.Errorf("%s starts with %v, want its checkpoint (no package initialisation in this test)", f, events[0].Kind)
			}
		}
		for j, e := range events {
			if e.Seq != uint64(j+1) {
				t.Fatalf("%s: event %d has seq %d", f, j, e.Seq)
			}
		}
		last := events[len(events)-1]
		if i < len(files)-1 && last.Kind != eventlog.KindCheckpoint {
			t.Errorf("%s ends with %v, want the checkpoint the next segment starts with", f, last.Kind)
		}
		if i == 0 {
			runSeq = last.Seq
		} else {
			runSeq = meta.SegmentFrom + last.Seq - 1
		}
	}
	if st := Rotation(); st.Segments != 3 || st.Deferred != 1 || st.Failed != 1 {
		t.Errorf("stats %+v, want 3 segments, 1 deferral, 1 failure", st)
	}
}

// A size limit rotates once the file is past it, and CAPTURE_KEEP keeps
// only the newest segments on disk.
func TestRotateBySizeKeeps(t *testing.T) {
	stem, _ := withRotation(t, map[string]string{EnvRotate: "2KiB", EnvKeep: "2"})
	site := &Site{Name: "example.com/ckpt.Put", Pos: "ckpt/ckpt.go:2"}
	for i := range 400 {
		s := In(site)
		s.String(strings.Repeat("x", 20))
		f := s.Call()
		s.Int(int64(i))
		s.Return(f)
	}
	Close()
	st := Rotation()
	files := segmentFiles(t, stem)
	if st.Segments < 4 || len(files) != 2 || st.Deleted != st.Segments-2 {
		t.Fatalf("%d segments, %d deleted, on disk %v: want at least 4, the newest 2 kept", st.Segments, st.Deleted, files)
	}
	if want := segmentPath(stem, st.Segments); files[1] != want {
		t.Errorf("kept %v, want the newest, %s last", files, want)
	}
	for _, f := range files[:1] {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		// Past the limit by at most what a few batches' estimate misses.
		if fi.Size() < 2048 || fi.Size() > 4*2048 {
			t.Errorf("%s: %d bytes for a 2 KiB limit", f, fi.Size())
		}
	}
}

func TestParseRotate(t *testing.T) {
	for _, c := range []struct {
		in    string
		size  int64
		every time.Duration
	}{
		{"64MiB", 64 << 20, 0},
		{"1h", 0, time.Hour},
		{"64MiB,1h", 64 << 20, time.Hour},
		{"10m, 500000", 500000, 10 * time.Minute},
	} {
		size, every, err := probectl.ParseRotate(c.in)
		if err != nil || size != c.size || every != c.every {
			t.Errorf("ParseRotate(%q) = %d, %v, %v; want %d, %v", c.in, size, every, err, c.size, c.every)
		}
	}
	for _, bad := range []string{"", "1h,2h", "1MiB,2MiB", "-1h", "1x", "1h,1MiB,1"} {
		if _, _, err := probectl.ParseRotate(bad); err == nil {
			t.Errorf("ParseRotate(%q) succeeded", bad)
		}
	}
}

// BenchmarkRotation times an incall whose return starts a new segment (a
// checkpoint of a small state, the next file created, the previous one
// closed off the program's path), against BenchmarkRotationOff's incall.
func BenchmarkRotation(b *testing.B) {
	_, clock := withRotation(b, map[string]string{EnvRotate: "1s", EnvKeep: "2"})
	site := &Site{Name: "example.com/ckpt.Inc", Pos: "ckpt/ckpt.go:1"}
	ckptHead = &ckptNode{n: 1, name: "head", next: &ckptNode{n: 2, name: "next"}}
	for b.Loop() {
		*clock = clock.Add(time.Second)
		ckptCount++
		s := In(site)
		f := s.Call()
		s.Return(f)
	}
	b.StopTimer()
	Close()
	if st := Rotation(); st.Segments < b.N {
		b.Fatalf("%d segments for %d incalls", st.Segments, b.N)
	}
}

func BenchmarkRotationOff(b *testing.B) {
	withRotation(b, map[string]string{EnvRotate: "1000h"})
	site := &Site{Name: "example.com/ckpt.Inc", Pos: "ckpt/ckpt.go:1"}
	for b.Loop() {
		ckptCount++
		s := In(site)
		f := s.Call()
		s.Return(f)
	}
}
