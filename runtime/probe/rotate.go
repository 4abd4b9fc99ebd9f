package probe

import (
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probectl"
	segcut "github.com/rules-capture/rules_capture/runtime/segment"
)

// Rotation (CAPTURE_ROTATE, CAPTURE_KEEP; docs/capture-command.md).
//
// A service that runs for days must not write one unbounded log that only
// replays whole. With rotation on, the log is a series of segments: at the
// first quiescent point after the current file passed the size limit or
// was started longer ago than the time limit, the recorder takes a
// checkpoint, starts the next file with what `capture cut` would write for
// that checkpoint (the run's package initialisation, the checkpoint, the
// run's ID and where in the run it starts: runtime/segment), and closes the
// current one, which ends at that checkpoint and is a complete log. Every
// segment therefore replays alone. Where the checkpoint is refused (a
// NO_CHECKPOINT event in the log says why), the file goes on and the next
// quiescent point tries again. The rotation runs with ckpt.mu held, so no
// incall starts meanwhile and no event is appended to either file.

// EnvRotate and EnvKeep are the environment variables of rotation.
const (
	EnvRotate = probectl.EnvRotate
	EnvKeep   = probectl.EnvKeep
)

// rotNow is rotation's clock (a test moves it).
var rotNow = time.Now

var rot struct {
	on       bool
	maxBytes int64         // size limit (0: none)
	every    time.Duration // time limit (0: none)
	keep     int           // segments kept on disk (0: all)
	limit    string        // EnvRotate's value
	stem     string        // the path of every segment but its number and ".arrow"
	opts     eventlog.Options

	// State, with ckpt.mu held.
	n       int       // number of the current segment, from 1
	started time.Time // when it started
	due     bool      // a limit was passed; rotate at the next checkpoint taken
	lastCp  eventlog.Event
	// init is the run's package initialisation as the current file
	// holds it (the first file: read back at the first rotation; then
	// each new segment's, numbered from 1), meta the run's metadata.
	init     []eventlog.Event
	haveInit bool
	meta     eventlog.Meta
	runFrom  uint64 // seq in the run of the current file's first checkpoint (0: the first file)
	fileCp   uint64 // that checkpoint's seq in the file
	stats    RotationStats
	// deferred and failed count, since the current file started, the
	// quiescent points past the limit without a checkpoint and the next
	// files that could not be created: the next segment's metadata says.
	deferred, failed uint64
	broken           string // why no further segment can be made ("" while they can)

	closing sync.WaitGroup // closes of finished segments in progress
	filesMu sync.Mutex
	files   []string // segments on disk, oldest first
}

// RotationStats counts what rotation did in this process.
type RotationStats struct {
	Segments int    // files started (the first included)
	Deferred uint64 // quiescent points past a limit where the checkpoint was refused: rotation waited for the next one
	Failed   uint64 // rotations that could not start the next file (the current one went on)
	Deleted  int    // old segments deleted for CAPTURE_KEEP
	LastErr  string // the last failure
}

// Rotation reports what rotation did in this process (zero if it is off).
func Rotation() RotationStats {
	ckpt.mu.Lock()
	defer ckpt.mu.Unlock()
	rot.filesMu.Lock()
	defer rot.filesMu.Unlock()
	return rot.stats
}

// configureRotation reads EnvRotate and EnvKeep at capture start (before
// the first file is opened). Rotation turns checkpoints on: without
// CAPTURE_CHECKPOINT_EVERY they are taken only where a segment starts.
func configureRotation(getenv func(string) string) error {
	v := getenv(EnvRotate)
	if v == "" {
		return nil
	}
	size, every, err := probectl.ParseRotate(v)
	if err != nil {
		return fmt.Errorf("%s=%q: %v", EnvRotate, v, err)
	}
	keep := 0
	if k := getenv(EnvKeep); k != "" {
		if keep, err = strconv.Atoi(k); err != nil || keep < 0 {
			return fmt.Errorf("%s=%q: want a number of segments (0: keep all)", EnvKeep, k)
		}
	}
	rot.on, rot.maxBytes, rot.every, rot.keep, rot.limit = true, size, every, keep, v
	rot.n, rot.stats.Segments = 1, 1
	rot.started = rotNow()
	ckptOn = true
	captureObjects.mu.Lock()
	if captureObjects.types == nil {
		captureObjects.types = map[uintptr]reflect.Type{}
	}
	captureObjects.mu.Unlock()
	return nil
}

// rotationMeta is the metadata (eventlog.Meta.Rotation) of segment n,
// which starts now (ckpt.mu held, or before capture starts).
func rotationMeta(n int) string {
	if smpOn {
		return sampleMeta(n) // sample.go
	}
	return fmt.Sprintf("segment=%d limit=%s deferred=%d failed=%d", n, rot.limit, rot.deferred, rot.failed)
}

// segmentPath is the path of segment n of the rotated log whose path would
// have been path: "<path without .arrow>.seg000001.arrow", so that the
// segments of one run sort in order beside each other.
func segmentPath(stem string, n int) string {
	return fmt.Sprintf("%s.seg%06d.arrow", stem, n)
}

// firstSegment returns the path of the first segment for the log path
// that the environment names, and remembers the run's stem and options.
func firstSegment(path string, opts eventlog.Options) string {
	rot.stem = strings.TrimSuffix(path, ".arrow")
	rot.opts = opts
	p := segmentPath(rot.stem, 1)
	rot.files = []string{p}
	return p
}

// rotatePointLocked is a quiescent point while rotation is on (ckpt.mu
// held): a checkpoint if one is due (CAPTURE_CHECKPOINT_EVERY) or a limit
// was passed, and then the rotation if it was taken.
func rotatePointLocked(s *Stream) {
	if smpOn {
		samplePointLocked(s) // sample.go: windows instead of limits
		return
	}
	if !rot.due && rot.broken == "" && rec.w != nil {
		rot.due = rot.maxBytes > 0 && rec.w.Size() >= rot.maxBytes ||
			rot.every > 0 && rotNow().Sub(rot.started) >= rot.every
	}
	cpDue := ckpt.every != 0 && ckpt.points%ckpt.every == 0
	if !cpDue && !rot.due {
		return
	}
	taken := ckpt.taken
	takeCheckpointLocked(s)
	if !rot.due {
		return
	}
	if ckpt.taken == taken {
		rot.deferred++
		rot.stats.Deferred++ // refused: the NO_CHECKPOINT event says why; the next quiescent point retries
		return
	}
	rotateLocked(rotationMeta(rot.n+1), false)
}

// noteCheckpointAppended keeps the CHECKPOINT event just appended (its seq
// assigned), which the next segment starts with.
func noteCheckpointAppended(e *eventlog.Event) {
	rot.lastCp = *e
	rot.lastCp.Values = append([]byte(nil), e.Values...)
}

// rotateLocked starts the next segment with the checkpoint just taken
// (rot.lastCp), its metadata's rotation note meta, and closes the current
// file unless closed says it was closed already (a sampled window that
// ended before this one starts; ckpt.mu held). If the next file cannot be
// started (a full disk), the current one goes on, nothing is lost, and the
// next quiescent point tries again.
func rotateLocked(meta string, closed bool) {
	fail := func(err error) {
		rot.failed++
		rot.stats.Failed++
		rot.stats.LastErr = err.Error()
		if rot.stats.Failed == 1 || rot.stats.Failed%100 == 0 {
			warnf("capture: cannot start segment %d of the log (%v); %s goes on and rotation is retried at the next quiescent point (%d failures so far)", rot.n+1, err, rec.path, rot.stats.Failed)
		}
	}
	if !rot.haveInit {
		if lasting, err := readInit(); err != nil {
			if !lasting {
				fail(err) // a disk that did not answer in time: retried
				return
			}
			// Without the run's initialisation no segment could replay:
			// the run stays in this file.
			rot.broken = err.Error()
			rot.due = false
			rot.stats.LastErr = rot.broken
			warnf("capture: %s will not be rotated: %v", rec.path, err)
			return
		}
	}
	cp := rot.lastCp
	runSeq := cp.Seq
	if rot.runFrom != 0 {
		runSeq = rot.runFrom + (cp.Seq - rot.fileCp)
	}
	events := append(append(make([]eventlog.Event, 0, len(rot.init)+1), rot.init...), cp)
	seg, err := segcut.Cut(events, rot.meta, len(rot.init), len(events))
	if err != nil {
		fail(err)
		return
	}
	now := rotNow()
	seg.Meta.SegmentFrom = runSeq
	seg.Meta.StartTime = now.UTC()
	seg.Meta.Rotation = meta
	path := segmentPath(rot.stem, rot.n+1)
	w, err := eventlog.Create(path, seg.Meta, rot.opts)
	if err != nil {
		fail(err)
		return
	}
	for i := range seg.Events {
		e := seg.Events[i]
		w.Append(&e)
	}
	rec.mu.Lock()
	if rec.closed.Load() {
		// The log was closed meanwhile (a signal): the new file is not
		// needed.
		rec.mu.Unlock()
		_ = w.Close()
		os.Remove(path)
		return
	}
	old, oldPath := rec.w, rec.path
	rec.w, rec.path = w, path
	smp.closedW = false
	rec.mu.Unlock()

	rot.n++
	rot.init = seg.Events[:seg.InitEvents]
	ckpt.initEnd = uint64(seg.InitEvents) // later checkpoints of this file count in its numbering
	rot.runFrom, rot.fileCp = runSeq, uint64(seg.InitEvents+1)
	rot.started, rot.due = now, false
	rot.deferred, rot.failed = 0, 0
	rot.filesMu.Lock()
	rot.stats.Segments++
	rot.files = append(rot.files, path)
	rot.filesMu.Unlock()
	// The finished file is closed off the program's path (its last batch
	// and status are written, which a slow disk may take a while to do);
	// then the oldest segments beyond CAPTURE_KEEP go.
	rot.closing.Add(1)
	go func() {
		defer rot.closing.Done()
		if closed {
			pruneSegments()
			return
		}
		if err := closeWriter(old); err != nil {
			warnf("capture: closing the log segment %s: %v", oldPath, err)
		}
		pruneSegments()
	}()
}

// readInit reads the run's package initialisation (events up to
// ckpt.initEnd) and metadata back from the first file, at the first
// rotation: the recorder does not keep events, and this happens once per
// run. lasting says that no later try can succeed (events of the
// initialisation are missing from the file).
func readInit() (lasting bool, err error) {
	if rec.w.Policy() == eventlog.Drop {
		err = rec.w.FlushWithin(flushWait)
	} else {
		err = rec.w.Flush()
	}
	if err != nil {
		return false, fmt.Errorf("reading back its package initialisation: %v", err)
	}
	r, err := eventlog.Open(rec.path)
	if err != nil {
		return false, fmt.Errorf("reading back its package initialisation: %v", err)
	}
	defer r.Close()
	var init []eventlog.Event
	for {
		e, err := r.Next()
		if err == io.EOF || err == nil && e.Seq > ckpt.initEnd {
			break
		}
		if err != nil {
			return false, fmt.Errorf("reading back its package initialisation: %v", err)
		}
		if e.Seq != uint64(len(init)+1) {
			return true, fmt.Errorf("events of its package initialisation are missing (seq %d after %d): the writer dropped them", e.Seq, len(init))
		}
		init = append(init, e.Clone())
	}
	if uint64(len(init)) != ckpt.initEnd {
		return r.Meta().Status.Dropped > 0, fmt.Errorf("its package initialisation has %d events, %d written", ckpt.initEnd, len(init))
	}
	rot.init, rot.meta, rot.haveInit = init, r.Meta(), true
	rot.meta.Status = eventlog.Status{}
	return false, nil
}

// pruneSegments deletes the oldest segments beyond CAPTURE_KEEP.
func pruneSegments() {
	rot.filesMu.Lock()
	defer rot.filesMu.Unlock()
	for rot.keep > 0 && len(rot.files) > rot.keep {
		if err := os.Remove(rot.files[0]); err != nil && !os.IsNotExist(err) {
			warnf("capture: %s=%d: cannot delete the old segment %s: %v", EnvKeep, rot.keep, rot.files[0], err)
		} else {
			rot.stats.Deleted++
		}
		rot.files = rot.files[1:]
	}
}

// waitRotated waits, at most d, for the closes of finished segments.
func waitRotated(d time.Duration) {
	done := make(chan struct{})
	go func() { rot.closing.Wait(); close(done) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		warnf("capture: a finished log segment was not closed within %v (its disk did not answer); it reads as the log of a killed process, replayable up to its last written batch", d)
	}
}
