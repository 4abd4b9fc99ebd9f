package probe

import (
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// withSampling captures, with checkpoints on the test's state
// (withCheckpointsB), into a sampled log in a temporary directory, under
// the environment env (EnvSample, EnvSampleWindow, EnvSampleSeed,
// EnvKeep). It returns the log's stem (the startup segment and the
// windows are stem.seg000001.arrow...).
func withSampling(t testing.TB, env map[string]string) string {
	t.Helper()
	withCheckpointsB(t)
	CaptureTo(nil)
	locks, chans := lockNumbers.Load(), turnChans.next.Load()
	lockNumbers.Store(0)
	turnChans.next.Store(0)
	every := ckpt.every
	ckpt.every = 0
	if err := configureSampling(func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	opts := eventlog.Options{Policy: eventlog.Block, Compression: eventlog.Uncompressed}
	stem := filepath.Join(t.TempDir(), "svc")
	if _, err := CaptureWith(firstSegment(stem+".arrow", opts), opts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		Close()
		lockNumbers.Store(locks)
		turnChans.next.Store(chans)
		ckpt.every = every
		ckpt.initEnd, ckpt.points, ckpt.taken, ckpt.refused = 0, 0, 0, 0
		rot.on, rot.maxBytes, rot.every, rot.keep, rot.stem = false, 0, 0, 0, ""
		rot.n, rot.due, rot.lastCp, rot.init, rot.haveInit = 0, false, eventlog.Event{}, nil, false
		rot.meta, rot.runFrom, rot.fileCp, rot.broken = eventlog.Meta{}, 0, 0, ""
		rot.stats, rot.files, rot.limit, rot.deferred, rot.failed = RotationStats{}, nil, "", 0, 0
		smpOn = false
		smpIdle.Store(false)
		smp.rate, smp.window, smp.chance, smp.seed, smp.rng = 0, 0, 0, 0, nil
		smp.n, smp.inWindow, smp.pending, smp.skipped, smp.refused, smp.start = 0, 0, false, 0, 0, 0
		smp.stats, smp.held, smp.broken, smp.closedW = SamplingStats{}, nil, false, false
	})
	return stem
}

// metaField returns the value of key in a rotation metadata note
// ("segment=3 ... window=2 ...").
func metaField(note, key string) string {
	for _, f := range strings.Fields(note) {
		if k, v, ok := strings.Cut(f, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// Over many quiescent points the windows record about the rate's fraction
// of the incalls (the seed makes the draws, and so the count, fixed): each
// window is a closed segment that starts at a checkpoint and holds the
// window's length in incalls, numbered in its metadata, and between
// windows nothing is written.
func TestSampledWindowsRecordTheRate(t *testing.T) {
	const (
		n      = 20000
		rate   = 0.1
		window = 5
	)
	stem := withSampling(t, map[string]string{EnvSample: strconv.FormatFloat(rate, 'g', -1, 64),
		EnvSampleWindow: strconv.Itoa(window), EnvSampleSeed: "7"})
	site := &Site{Name: "example.com/ckpt.Inc", Pos: "ckpt/ckpt.go:1"}
	for i := range n {
		ckptCount++
		s := In(site)
		s.Int(int64(i))
		f := s.Call()
		s.Int(int64(ckptCount))
		s.Return(f)
	}
	Close()
	st := Sampling()
	files := segmentFiles(t, stem)
	if st.Windows < 10 || len(files) != int(st.Windows)+1 {
		t.Fatalf("%d windows, files %v: want at least 10 windows and one file each, after the startup segment", st.Windows, files)
	}
	recorded := 0
	for i, f := range files {
		events, meta := readLog(t, f)
		if !meta.Status.Closed {
			t.Errorf("%s: not closed", f)
		}
		incalls := 0
		for _, e := range events {
			if e.Kind == eventlog.KindCallIn {
				incalls++
			}
		}
		if i == 0 {
			if incalls != 1 || metaField(meta.Rotation, "window") != "0" {
				t.Errorf("startup segment %s: %d incalls, note %q; want the first incall and window=0", f, incalls, meta.Rotation)
			}
			recorded += incalls
			continue
		}
		if events[0].Kind != eventlog.KindCheckpoint || meta.SegmentFrom == 0 {
			t.Errorf("window %s starts with %v (segment_from %d), want a checkpoint", f, events[0].Kind, meta.SegmentFrom)
		}
		if got := metaField(meta.Rotation, "window"); got != strconv.Itoa(i) || metaField(meta.Rotation, "rate") != "0.1" ||
			metaField(meta.Rotation, "length") != strconv.Itoa(window) || metaField(meta.Rotation, "seed") != "7" {
			t.Errorf("window %s: note %q, want window=%d rate=0.1 length=%d seed=7", f, meta.Rotation, i, window)
		}
		if i < len(files)-1 && incalls != window {
			t.Errorf("window %s holds %d incalls, want %d", f, incalls, window)
		}
		recorded += incalls
	}
	if uint64(recorded)+st.Incalls != n {
		t.Errorf("%d incalls recorded and %d outside windows, want %d together", recorded, st.Incalls, n)
	}
	frac := float64(recorded) / n
	t.Logf("%d windows of %d incalls: %d of %d incalls recorded (%.3f for a rate of %g)", st.Windows, window, recorded, n, frac, rate)
	// About 400 windows: the count's spread over seeds is about 5%.
	if frac < 0.85*rate || frac > 1.15*rate {
		t.Errorf("recorded a fraction %.3f of the incalls, want about %g", frac, rate)
	}
}

// A window whose checkpoint is refused at its chosen point starts at the
// next quiescent point where one is taken, and its metadata counts the
// refusals; nothing between windows reaches the files.
func TestSampledWindowWaitsForCheckpoint(t *testing.T) {
	stem := withSampling(t, map[string]string{EnvSample: "1", EnvSampleWindow: "3", EnvSampleSeed: "1"})
	site := &Site{Name: "example.com/ckpt.Inc", Pos: "ckpt/ckpt.go:1"}
	inc := func() {
		ckptCount++
		s := In(site)
		f := s.Call()
		s.Int(int64(ckptCount))
		s.Return(f)
	}
	// A goroutine of observed code alive refuses the checkpoints at the
	// end of the startup segment and at the next point.
	liveGo.Add(1)
	inc()
	inc()
	liveGo.Add(-1)
	inc() // taken: window 1
	for range 3 {
		inc()
	}
	Close()
	files := segmentFiles(t, stem)
	if len(files) < 2 {
		t.Fatalf("files %v, want the startup segment and a window", files)
	}
	events, meta := readLog(t, files[1])
	if metaField(meta.Rotation, "deferred") != "2" || metaField(meta.Rotation, "window") != "1" ||
		metaField(meta.Rotation, "point") != "3" || metaField(meta.Rotation, "skipped") != "2" {
		t.Errorf("the first window's note %q, want deferred=2 window=1 point=3 skipped=2", meta.Rotation)
	}
	var vals []int64
	for _, e := range events {
		if e.Kind == eventlog.KindReturnIn {
			d := value.Decoder{Buf: e.Values}
			vals = append(vals, d.Int())
		}
	}
	if st := Sampling(); st.Refused != 2 {
		t.Errorf("stats %+v, want 2 refusals", st)
	}
	if len(events) == 0 || events[0].Kind != eventlog.KindCheckpoint || len(vals) != 3 || vals[0] != 4 {
		t.Errorf("the first window holds %d events (returns %v), want its checkpoint and the 4th to 6th incalls", len(events), vals)
	}
}

// Invalid settings are refused with what to set instead.
func TestSampleConfigErrors(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{EnvSample: "2"}, "at most 1, such as 0.05"},
		{map[string]string{EnvSample: "abc"}, "a number above 0 and at most 1"},
		{map[string]string{EnvSample: "0"}, "unset: record everything"},
		{map[string]string{EnvSample: "0.05", EnvSampleWindow: "0"}, "at least 1"},
		{map[string]string{EnvSample: "0.05", EnvSampleSeed: "x"}, "want a whole number"},
		{map[string]string{EnvSample: "0.05", EnvRotate: "1h"}, "unset CAPTURE_ROTATE"},
		{map[string]string{EnvSample: "0.05", EnvMode: "flight"}, "unset one of them"},
		{map[string]string{EnvSampleWindow: "10"}, "set CAPTURE_SAMPLE to the fraction"},
	} {
		err := configureSampling(func(k string) string { return c.env[k] })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error saying %q", c.env, err, c.want)
		}
		if smpOn || rot.on {
			t.Fatalf("%v: sampling turned on by a refused setting", c.env)
		}
	}
}

// Outside a window an incall that panics ends its frame (the next incall is
// a top-level one again, and its return a quiescent point), a callback
// from external code is counted like an incall and returns its results,
// and an outcall is not seen.
func TestOutsideWindowIncalls(t *testing.T) {
	withSampling(t, map[string]string{EnvSample: "1e-12", EnvSampleSeed: "1"})
	site := &Site{Name: "example.com/ckpt.Inc", Pos: "ckpt/ckpt.go:1"}
	inc := func(fail bool) (r int) {
		s := In(site)
		s.Int(1)
		f := s.Call()
		s.Run(f, func() {
			if fail {
				panic("boom")
			}
			if smpIdle.Load() && Out(&Site{Name: "time.Now"}) != nil {
				t.Error("an outcall outside a window was seen")
			}
			r = 7
		})
		s.Int(int64(r))
		s.Return(f)
		return r
	}
	inc(false) // ends the startup segment
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the incall's panic", r)
			}
		}()
		inc(true)
	}()
	if s := current(); len(s.frames) != 0 || s.inside || s.idleCall {
		t.Fatalf("after the panic the stream has %d frames, inside %v, idle call %v", len(s.frames), s.inside, s.idleCall)
	}
	if got := inc(false); got != 7 {
		t.Errorf("incall returned %d", got)
	}
	double := func(x int) int { return 2 * x }
	out := callIn(&Site{Name: "callback example.com/ckpt.double"}, 0, nil, false, reflect.ValueOf(double), []reflect.Value{reflect.ValueOf(21)})
	if len(out) != 1 || out[0].Int() != 42 {
		t.Errorf("callback returned %v", out)
	}
	ckpt.mu.Lock()
	open := ckpt.open
	ckpt.mu.Unlock()
	st := Sampling()
	// The startup segment's incall, then the panicking one (no quiescent
	// point), the third incall and the callback, both outside windows.
	if open != 0 || st.Windows != 0 || st.Points != 3 || st.Incalls != 3 {
		t.Errorf("%d incalls open, stats %+v: want none open, 3 quiescent points, 3 incalls outside windows", open, st)
	}
}

// With incalls on several goroutines at once, every incall is wholly
// inside a window or wholly outside: a window's file holds the CALL_IN of
// every RETURN_IN it holds and the RETURN_IN of every CALL_IN, and the
// incalls recorded and those outside windows add up.
func TestSampledWindowsConcurrentIncalls(t *testing.T) {
	stem := withSampling(t, map[string]string{EnvSample: "0.3", EnvSampleWindow: "4", EnvSampleSeed: "5"})
	site := &Site{Name: "example.com/ckpt.Get", Pos: "ckpt/ckpt.go:3"}
	const workers, each = 4, 1500
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range each {
				s := In(site)
				s.Int(int64(w))
				f := s.Call()
				s.Int(int64(i))
				s.Return(f)
			}
		}()
	}
	for range workers {
		<-done
	}
	Close()
	st := Sampling()
	files := segmentFiles(t, stem)
	recorded := 0
	for i, f := range files {
		events, _ := readLog(t, f)
		open := map[uint64]bool{}
		for _, e := range events {
			switch e.Kind {
			case eventlog.KindCallIn:
				open[e.Seq] = true
				recorded++
			case eventlog.KindReturnIn:
				if !open[e.Parent] {
					t.Errorf("%s: RETURN_IN %d of an incall the file does not hold (parent %d)", f, e.Seq, e.Parent)
				}
				delete(open, e.Parent)
			}
		}
		if len(open) != 0 && i < len(files)-1 {
			t.Errorf("%s: %d incalls without their return", f, len(open))
		}
	}
	if st.Windows < 5 || uint64(recorded)+st.Incalls != workers*each {
		t.Errorf("%d windows, %d incalls recorded and %d outside windows: want at least 5 windows and %d incalls", st.Windows, recorded, st.Incalls, workers*each)
	}
	t.Logf("%d windows, %d of %d incalls recorded", st.Windows, recorded, workers*each)
}
