// Package replaybench measures replay speed on a scalar-heavy log (its own
// test binary: replay mode is process-wide).
package replaybench

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probe"
	"github.com/rules-capture/rules_capture/runtime/probe/internal/calcbench"
	"github.com/rules-capture/rules_capture/runtime/value"
)

const site = "github.com/rules-capture/rules_capture/runtime/probe/internal/calcbench.Add"

// writeLog writes calls incalls of calcbench.Add (2 events each); wrong
// makes the result of call number wrong differ from what Add returns.
func writeLog(t testing.TB, path string, calls, wrong int) {
	w, err := eventlog.Create(path, eventlog.Meta{}, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf []byte
	for i := 0; i < calls; i++ {
		buf = value.AppendInt(value.AppendInt(buf[:0], int64(i)), 2)
		seq := w.Append(&eventlog.Event{Stream: 1, Kind: eventlog.KindCallIn, Site: site, Pos: "calcbench/calc.go:11", Values: buf})
		r := i + 2
		if i == wrong {
			r++
		}
		buf = value.AppendInt(buf[:0], int64(r))
		w.Append(&eventlog.Event{Stream: 1, Kind: eventlog.KindReturnIn, Parent: seq, Site: site, Pos: "calcbench/calc.go:11", Values: buf})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

var _ = calcbench.Add // links the instrumented subject (registers its incall site)

// TestReplayFindsWrongResult: the player drives every incall and reports
// the first result that differs, with its sequence number.
func TestReplayFindsWrongResult(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wrong.arrow")
	writeLog(t, path, 100, 41)
	if err := probe.LoadReplay(path, probe.CheckStrict); err != nil {
		t.Fatal(err)
	}
	r := probe.Replay()
	if r.Verdict != "diverged" || r.Divergence == nil || r.Divergence.Seq != 84 || r.Divergence.Reason != "different results" {
		t.Fatalf("got %+v %+v", r, r.Divergence)
	}
}

// TestReplayConcurrentStreams: a log of interleaved streams replays with
// every stream on its own goroutine, all events in the recorded order
// (no relaxation note), race-detector clean.
func TestReplayConcurrentStreams(t *testing.T) {
	path := filepath.Join(t.TempDir(), "streams.arrow")
	w, err := eventlog.Create(path, eventlog.Meta{}, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const streams, calls = 8, 40
	var buf []byte
	open := map[uint32]uint64{}
	for i := 0; i < calls; i++ {
		for s := uint32(1); s <= streams; s++ {
			buf = value.AppendInt(value.AppendInt(buf[:0], int64(i)), int64(s))
			open[s] = w.Append(&eventlog.Event{Stream: s, Kind: eventlog.KindCallIn, Site: site, Values: buf})
		}
		for s := uint32(streams); s >= 1; s-- {
			buf = value.AppendInt(buf[:0], int64(i)+int64(s))
			w.Append(&eventlog.Event{Stream: s, Kind: eventlog.KindReturnIn, Parent: open[s], Site: site, Values: buf})
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := probe.LoadReplay(path, probe.CheckStrict); err != nil {
		t.Fatal(err)
	}
	r := probe.Replay()
	if r.Verdict != "pass" || r.Replayed != 2*streams*calls || len(r.Notes) != 0 {
		t.Fatalf("got %+v %+v", r, r.Divergence)
	}
}

// BenchmarkReplay replays a log of 1M scalar events per iteration and
// reports events per second of the replay itself (target: >= 1M/s on one
// core) and of loading plus replaying.
func BenchmarkReplay(b *testing.B) {
	const calls = 500_000
	path := filepath.Join(b.TempDir(), "scalar.arrow")
	writeLog(b, path, calls, -1)
	b.ResetTimer()
	var replay, all time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if err := probe.LoadReplay(path, probe.CheckStrict); err != nil {
			b.Fatal(err)
		}
		loaded := time.Now()
		r := probe.Replay()
		replay += time.Since(loaded)
		all += time.Since(start)
		if r.Verdict != "pass" || r.Replayed != 2*calls {
			b.Fatalf("replay: %+v %+v", r, r.Divergence)
		}
	}
	b.ReportMetric(float64(2*calls*b.N)/replay.Seconds(), "replay-events/s")
	b.ReportMetric(float64(2*calls*b.N)/all.Seconds(), "load+replay-events/s")
}

// BenchmarkReplayConcurrent replays a log of 64 streams whose incalls
// interleave (every stream's call open at once), so every release hands
// the turn to another goroutine; it reports replayed events per second.
func BenchmarkReplayConcurrent(b *testing.B) {
	path := filepath.Join(b.TempDir(), "streams.arrow")
	w, err := eventlog.Create(path, eventlog.Meta{}, eventlog.Options{})
	if err != nil {
		b.Fatal(err)
	}
	const streams, calls = 64, 50
	var buf []byte
	open := map[uint32]uint64{}
	for i := 0; i < calls; i++ {
		for s := uint32(1); s <= streams; s++ {
			buf = value.AppendInt(value.AppendInt(buf[:0], int64(i)), int64(s))
			open[s] = w.Append(&eventlog.Event{Stream: s, Kind: eventlog.KindCallIn, Site: site, Values: buf})
		}
		for s := uint32(streams); s >= 1; s-- {
			buf = value.AppendInt(buf[:0], int64(i)+int64(s))
			w.Append(&eventlog.Event{Stream: s, Kind: eventlog.KindReturnIn, Parent: open[s], Site: site, Values: buf})
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var replay time.Duration
	for i := 0; i < b.N; i++ {
		if err := probe.LoadReplay(path, probe.CheckStrict); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		r := probe.Replay()
		replay += time.Since(start)
		if r.Verdict != "pass" || r.Replayed != 2*streams*calls || len(r.Notes) != 0 {
			b.Fatalf("replay: %+v %+v", r, r.Divergence)
		}
	}
	b.ReportMetric(float64(2*streams*calls*b.N)/replay.Seconds(), "replay-events/s")
}
