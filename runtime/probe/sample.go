package probe

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probectl"
)

// Sampling (CAPTURE_SAMPLE; docs/capture-command.md, docs/design/checkpoints.md).
//
// A fleet that captures every request pays the probes' whole cost on every
// machine; most of what it records is never read. With sampling on, the
// recorder records windows: at a quiescent point it draws whether the next
// CAPTURE_SAMPLE_WINDOW quiescent points are recorded, and if so takes a
// checkpoint and starts a segment with it (the rotation's writer:
// rotateLocked), which ends, a closed log, at the window's last quiescent
// point. Between windows the probes record nothing: a top-level incall is
// counted (the quiescent points are where windows start) and runs the
// original code without encoding a value (idleCall), an outcall is not
// seen at all, and any other event is dropped before the writer.
//
// The draw is made so that the expected fraction of quiescent spans (the
// stretches between two quiescent points: in a sequential service, one
// incall each) recorded is the rate p: with windows of w spans and a chance
// q at each point outside a window, a window follows (1-q)/q unrecorded
// spans on average, so the fraction is w / (w + (1-q)/q), which is p for
// q = p / (w(1-p) + p). The draw does not look at what the spans hold, so
// the fraction of incalls recorded is p too, over many windows.
//
// Every window starts at a checkpoint, so the observed state that earlier
// unrecorded incalls built is restored by replay of the window alone. A
// checkpoint refused at a chosen point (a NO_CHECKPOINT reason) is tried
// again at the next quiescent point; the window's metadata counts those.

// The environment variables of sampling.
const (
	EnvSample       = probectl.EnvSample
	EnvSampleWindow = probectl.EnvSampleWindow
	EnvSampleSeed   = probectl.EnvSampleSeed
)

// defaultSampleWindow is a window's length in quiescent points where
// CAPTURE_SAMPLE_WINDOW is unset: long enough that a window's fixed cost
// (a checkpoint, the run's initialisation written again, a file created
// and closed: about a millisecond, BenchmarkRotation) is small against the
// unrecorded incalls between windows it is spread over (at a rate of 0.05
// a window starts every 20,000 points or so: 0.05 µs each), short enough
// that a rate of a few percent gives windows spread over the run.
const defaultSampleWindow = 1000

// smpOn is set once, before capture starts, when sampling is on.
var smpOn bool

// smpIdle is true between windows: probes record nothing. It changes only
// at a quiescent point, with ckpt.mu held, when no incall is in progress
// and no goroutine of observed code is alive, so every incall and
// goroutine runs wholly inside a window or wholly outside one.
var smpIdle atomic.Bool

var smp struct {
	rate   float64 // CAPTURE_SAMPLE
	window uint64  // CAPTURE_SAMPLE_WINDOW: quiescent points per window
	chance float64 // of starting a window at a quiescent point outside one
	seed   uint64
	rng    *rand.Rand

	// With ckpt.mu held.
	n        int    // windows started
	inWindow uint64 // quiescent points of the current window so far
	pending  bool   // a window was drawn, its checkpoint not yet taken
	skipped  uint64 // quiescent points outside windows since the last one
	refused  uint64 // checkpoints refused since the window was drawn
	start    uint64 // quiescent point the current window started at
	stats    SamplingStats
	held     *eventlog.Event // the checkpoint (or refusal) taken between windows
	broken   bool            // the run's initialisation could not be kept: no window can be written
	// closedW: rec.w, the last window's writer, was closed when the window
	// ended (with rec.mu held, as rec.w).
	closedW bool
}

// SamplingStats counts what sampling did in this process.
type SamplingStats struct {
	Windows uint64 // windows started
	Points  uint64 // quiescent points after initialisation
	Sampled uint64 // of them, inside windows
	Refused uint64 // checkpoints refused at points where a window was due
	Incalls uint64 // top-level incalls outside windows (counted, not recorded)
}

// Sampling reports what sampling did in this process (zero if it is off).
func Sampling() SamplingStats {
	ckpt.mu.Lock()
	defer ckpt.mu.Unlock()
	return smp.stats
}

// configureSampling reads EnvSample, EnvSampleWindow and EnvSampleSeed at
// capture start (before the first file is opened). Sampling writes its
// windows as the segments of a rotated log, so it turns rotation on (with
// no limit) and cannot be combined with CAPTURE_ROTATE or the flight
// recorder, whose segments follow other rules.
func configureSampling(getenv func(string) string) error {
	v := getenv(EnvSample)
	if v == "" {
		for _, k := range []string{EnvSampleWindow, EnvSampleSeed} {
			if getenv(k) != "" {
				return fmt.Errorf("%s is set without %s: set %s to the fraction to record (such as 0.05), or unset %s", k, EnvSample, EnvSample, k)
			}
		}
		return nil
	}
	rate, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !(rate > 0 && rate <= 1) {
		return fmt.Errorf("%s=%q: want the fraction of the run to record, a number above 0 and at most 1, such as 0.05 (unset: record everything)", EnvSample, v)
	}
	if r := getenv(EnvRotate); r != "" {
		return fmt.Errorf("%s=%s with %s=%s: a sampled log's segments are its windows (their length is %s); unset %s", EnvSample, v, EnvRotate, r, EnvSampleWindow, EnvRotate)
	}
	if m := getenv(EnvMode); m != "" {
		return fmt.Errorf("%s=%s with %s=%s: a flight recorder keeps the last minutes whole, a sampled log a fraction of the run; unset one of them", EnvSample, v, EnvMode, m)
	}
	window := uint64(defaultSampleWindow)
	if w := getenv(EnvSampleWindow); w != "" {
		if window, err = strconv.ParseUint(strings.TrimSpace(w), 10, 64); err != nil || window == 0 {
			return fmt.Errorf("%s=%q: want a window's length in quiescent points, a whole number of at least 1 (default %d)", EnvSampleWindow, w, defaultSampleWindow)
		}
	}
	seed := rand.Uint64()
	if s := getenv(EnvSampleSeed); s != "" {
		if seed, err = strconv.ParseUint(strings.TrimSpace(s), 10, 64); err != nil {
			return fmt.Errorf("%s=%q: want a whole number (the same seed draws the same windows for the same sequence of quiescent points)", EnvSampleSeed, s)
		}
	}
	keep := 0
	if k := getenv(EnvKeep); k != "" {
		if keep, err = strconv.Atoi(k); err != nil || keep < 0 {
			return fmt.Errorf("%s=%q: want a number of windows to keep (0: keep all)", EnvKeep, k)
		}
	}
	smp.rate, smp.window, smp.seed = rate, window, seed
	smp.chance = rate / (float64(window)*(1-rate) + rate)
	smp.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	smpOn = true
	// The windows are the segments of a rotated log without a limit: only
	// samplePointLocked starts one.
	if err := configureRotation(func(k string) string {
		switch k {
		case EnvRotate:
			return "1000000h" // never reached: sampling decides
		case EnvKeep:
			return strconv.Itoa(keep)
		}
		return ""
	}); err != nil {
		return err
	}
	rot.every, rot.limit = 0, "sample"
	return nil
}

// sampleMeta is the rotation metadata (eventlog.Meta.Rotation) of sampled
// segment n, which starts now: the startup segment (n = 1: the run's
// initialisation and its events up to the first quiescent point), or a
// window, its number, where it starts and what was skipped before it.
func sampleMeta(n int) string {
	m := fmt.Sprintf("segment=%d limit=sample deferred=%d failed=%d rate=%s length=%d seed=%d", n, rot.deferred, rot.failed,
		strconv.FormatFloat(smp.rate, 'g', -1, 64), smp.window, smp.seed)
	if n == 1 {
		return m + " window=0"
	}
	return m + fmt.Sprintf(" window=%d point=%d skipped=%d", smp.n+1, smp.start, smp.skipped)
}

// sampleBegins counts a top-level incall that starts on s while sampling
// is on (in place of incallBegins, which Call then skips) and reports
// whether it is outside a window: then s records nothing until it returns
// (idleCall). Reading smpIdle with ckpt.mu held is what keeps a window's
// start and end away from incalls in progress.
func sampleBegins(s *Stream) bool {
	ckpt.mu.Lock()
	ckpt.open++
	idle := smpIdle.Load()
	if idle {
		smp.stats.Incalls++
	}
	ckpt.mu.Unlock()
	if idle {
		s.idleCall = true
		s.enc.Buf = s.enc.Buf[:0]
	}
	return idle
}

// callIdle is Call for an incall outside a window: a frame, so that the
// stream knows it runs observed code, and no event.
func (s *Stream) callIdle() int {
	s.frames = append(s.frames, frame{kind: eventlog.KindCallIn, inside: s.inside})
	s.inside = true
	s.enc.Buf = s.enc.Buf[:0]
	return len(s.frames) - 1
}

// runIdle is Run for an incall outside a window: a panic or
// runtime.Goexit that ends it ends the frame and goes on (nothing records
// it), else the caller's Return does.
func (s *Stream) runIdle(f int, call func()) {
	returned := false
	defer func() {
		if !returned {
			s.returnIdle(f, false)
		}
	}()
	call()
	returned = true
}

// returnIdle ends the incall outside a window on s: a quiescent point if
// it was the last in progress and returned.
func (s *Stream) returnIdle(f int, returned bool) {
	if f < len(s.frames) {
		s.inside = s.frames[f].inside
		s.frames = s.frames[:f]
	}
	s.idleCall = false
	s.enc.Buf = s.enc.Buf[:0]
	incallEnds(s, returned)
	s.idle()
}

// samplePointLocked is a quiescent point while sampling is on (ckpt.mu
// held): the current window may end here, and outside a window one may
// start.
func samplePointLocked(s *Stream) {
	if smp.broken {
		return
	}
	smp.stats.Points++
	if !smpIdle.Load() {
		if rot.n == 1 && smp.n == 0 {
			// The end of the startup segment (the run's initialisation and
			// what came before the first quiescent point): keep the
			// initialisation, which every window starts with.
			if !rot.haveInit {
				if _, err := readInit(); err != nil {
					warnf("capture: %s=%g: no window can be written: %v", EnvSample, smp.rate, err)
					endWindowLocked()
					smp.broken = true // idle for good: nothing more is recorded
					return
				}
			}
			endWindowLocked()
		} else {
			smp.stats.Sampled++
			smp.inWindow++
			if smp.inWindow < smp.window || liveGo.Load() > 0 {
				if ckpt.every != 0 && ckpt.points%ckpt.every == 0 {
					takeCheckpointLocked(s) // CAPTURE_CHECKPOINT_EVERY inside the window
				}
				// A goroutine of observed code that outlives the window
				// would make events after its end: the window goes on to
				// a point where none is alive.
				return
			}
			endWindowLocked()
		}
	}
	if !smp.pending {
		smp.pending = smp.rng.Float64() < smp.chance
	}
	if smp.pending {
		startWindowLocked(s)
	}
	if smpIdle.Load() {
		smp.skipped++ // the span after this point is not recorded
	}
}

// endWindowLocked ends the current window at this quiescent point: its file
// is closed off the program's path, and the probes record nothing until
// the next window starts.
func endWindowLocked() {
	smpIdle.Store(true)
	rec.mu.Lock()
	w, path, closed := rec.w, rec.path, rec.closed.Load()
	if !closed {
		smp.closedW = true
	}
	rec.mu.Unlock()
	if closed || w == nil {
		return
	}
	rot.closing.Add(1)
	go func() {
		defer rot.closing.Done()
		if err := closeWriter(w); err != nil {
			warnf("capture: closing the sampled window %s: %v", path, err)
		}
	}()
}

// startWindowLocked takes a checkpoint and, if it is taken, starts a window
// with it: the next segment (rotateLocked), whose metadata says what was
// sampled. Refused, the next quiescent point tries again.
func startWindowLocked(s *Stream) {
	// The shadows that WRITE_IN compares with are the state the checkpoint
	// writes (outside a window no incall refreshed them).
	refreshVars(s)
	if watchedFields.any.Load() {
		checkFieldsSlow(s, false)
	}
	smp.held = nil
	takeCheckpointLocked(s) // held by rec.append: no window is being written
	e := smp.held
	smp.held = nil
	if e == nil || e.Kind != eventlog.KindCheckpoint {
		smp.refused++
		smp.stats.Refused++
		rot.deferred++
		rot.stats.Deferred++
		return
	}
	// The checkpoint follows the events of the last file written, as a
	// rotation's does (its seq there places it in the run).
	e.Seq = rec.w.LastSeq() + 1
	rot.lastCp = *e
	smp.start = smp.stats.Points
	n := rot.n
	rotateLocked(sampleMeta(rot.n+1), smp.closedW)
	if rot.n == n {
		return // the next file could not be created: retried at the next point
	}
	smp.n++
	smp.stats.Windows++
	smp.pending, smp.inWindow, smp.skipped, smp.refused = false, 0, 0, 0
	smpIdle.Store(false)
}

// sampleHold keeps e, a CHECKPOINT or NO_CHECKPOINT event taken between
// windows, for startWindowLocked; any other event between windows is
// dropped.
func sampleHold(e *eventlog.Event) uint64 {
	if e.Kind == eventlog.KindCheckpoint || e.Kind == eventlog.KindNoCheckpoint {
		c := e.Clone()
		smp.held = &c
	}
	return 0
}
