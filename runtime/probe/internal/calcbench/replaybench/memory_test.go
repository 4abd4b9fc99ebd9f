package replaybench

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probe"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Replay memory is measured in a child process (the test binary run again
// with envChildLog set): its peak RSS (VmHWM) is the player's and the Go
// runtime's alone, not the log writer's of the parent or earlier replays'.
const envChildLog = "REPLAYBENCH_MEMORY_LOG"

// envLogDir names a folder where BenchmarkReplayMemory writes its logs, or
// finds them written by an earlier run, so that two builds of the player
// replay the same files.
const envLogDir = "REPLAYBENCH_LOG_DIR"

// writeBusyLog writes a log of about events events in the shape of a busy
// service: 64 goroutines whose incalls of calcbench.Add overlap, every
// round opening each stream's call in a random order and returning them in
// another, so consecutive events belong to different streams and a
// stream's next event lies up to two rounds (256 events) ahead; and one
// goroutine, a background job, that makes one call at the start and one at
// the end (its next event is the whole log ahead).
func writeBusyLog(tb testing.TB, path string, events int) int {
	w, err := eventlog.Create(path, eventlog.Meta{}, eventlog.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	const streams = 64
	rng := rand.New(rand.NewPCG(1, 2))
	order := make([]uint32, streams)
	for s := range order {
		order[s] = uint32(s + 1)
	}
	open := map[uint32]uint64{}
	args := map[uint32]int64{}
	var buf []byte
	background := func(a int64) {
		buf = value.AppendInt(value.AppendInt(buf[:0], a), 1)
		seq := w.Append(&eventlog.Event{Stream: streams + 1, Kind: eventlog.KindCallIn, Site: site, Pos: "calcbench/calc.go:11", Values: buf})
		buf = value.AppendInt(buf[:0], a+1)
		w.Append(&eventlog.Event{Stream: streams + 1, Kind: eventlog.KindReturnIn, Parent: seq, Site: site, Pos: "calcbench/calc.go:11", Values: buf})
	}
	background(1)
	n := 4
	for round := 0; n < events; round++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, s := range order {
			a, b := rng.Int64N(1<<40)-1<<39, int64(round)
			args[s] = a + b
			buf = value.AppendInt(value.AppendInt(buf[:0], a), b)
			open[s] = w.Append(&eventlog.Event{Stream: s, Kind: eventlog.KindCallIn, Site: site, Pos: "calcbench/calc.go:11", Values: buf})
		}
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, s := range order {
			buf = value.AppendInt(buf[:0], args[s])
			w.Append(&eventlog.Event{Stream: s, Kind: eventlog.KindReturnIn, Parent: open[s], Site: site, Pos: "calcbench/calc.go:11", Values: buf})
		}
		n += 2 * streams
	}
	background(2)
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return n
}

// busyEvents is the number of events writeBusyLog writes for events.
func busyEvents(events int) int { return 4 + (events-4+127)/128*128 }

// TestReplayMemoryChild is the child of the memory measurements: it
// replays the log named by envChildLog and prints its verdict, the events
// replayed, the seconds load and replay took and its peak RSS.
func TestReplayMemoryChild(t *testing.T) {
	path := os.Getenv(envChildLog)
	if path == "" {
		t.Skip("the child process of TestReplayMemoryBounded and BenchmarkReplayMemory")
	}
	start := time.Now()
	if err := probe.LoadReplay(path, probe.CheckStrict); err != nil {
		t.Fatal(err)
	}
	r := probe.Replay()
	secs := time.Since(start).Seconds()
	fmt.Printf("replaymem verdict=%s replayed=%d seconds=%.3f vmhwm_kib=%d\n", r.Verdict, r.Replayed, secs, vmHWM(t))
}

// vmHWM is the process's peak resident set in KiB.
func vmHWM(t testing.TB) int {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kib, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				t.Fatal(err)
			}
			return kib
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

type childResult struct {
	replayed int
	seconds  float64
	peakKiB  int
}

// replayInChild replays the log at path in a child process.
func replayInChild(tb testing.TB, path string, want int) childResult {
	cmd := exec.Command(os.Args[0], "-test.run=^TestReplayMemoryChild$", "-test.v")
	cmd.Env = append(os.Environ(), envChildLog+"="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("child: %v\n%s", err, out)
	}
	for line := range strings.Lines(string(out)) {
		rest, ok := strings.CutPrefix(line, "replaymem ")
		if !ok {
			continue
		}
		var verdict string
		var r childResult
		if _, err := fmt.Sscanf(rest, "verdict=%s replayed=%d seconds=%g vmhwm_kib=%d", &verdict, &r.replayed, &r.seconds, &r.peakKiB); err != nil {
			tb.Fatalf("child output %q: %v", line, err)
		}
		if verdict != "pass" || r.replayed != want {
			tb.Fatalf("child replay: verdict %s, %d of %d events replayed", verdict, r.replayed, want)
		}
		return r
	}
	tb.Fatalf("child printed no result:\n%s", out)
	return childResult{}
}

// TestReplayMemoryBounded: replaying a log of 2M events stays under
// peakBoundKiB of peak RSS (128 MiB; 384 MiB under -race). About 50 MiB
// are used, on a loaded machine; loading the whole log, as the player did
// before it streamed the log, takes over 400 MiB for it.
func TestReplayMemoryBounded(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is read from /proc/self/status")
	}
	if testing.Short() {
		t.Skip("writes and replays a log of 2M events")
	}
	path := filepath.Join(t.TempDir(), "busy.arrow")
	n := writeBusyLog(t, path, 2_000_000)
	r := replayInChild(t, path, n)
	t.Logf("%d events: peak RSS %d MiB, %.0f events/s", n, r.peakKiB>>10, float64(n)/r.seconds)
	if r.peakKiB > peakBoundKiB {
		t.Errorf("replaying %d events took %d MiB of peak RSS, want at most %d MiB: does the player hold the whole log?", n, r.peakKiB>>10, peakBoundKiB>>10)
	}
}

// BenchmarkReplayMemory replays logs of 1M and 10M events of writeBusyLog
// in a child process each and reports its peak RSS and the events per
// second of loading plus replaying (the log is written once, outside the
// timer).
func BenchmarkReplayMemory(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("peak RSS is read from /proc/self/status")
	}
	for _, events := range []int{1_000_000, 10_000_000} {
		b.Run(fmt.Sprintf("events=%dM", events/1_000_000), func(b *testing.B) {
			dir := os.Getenv(envLogDir)
			if dir == "" {
				dir = b.TempDir()
			}
			path := filepath.Join(dir, fmt.Sprintf("busy-%d.arrow", events))
			n := busyEvents(events)
			if _, err := os.Stat(path); err != nil {
				if n != writeBusyLog(b, path, events) {
					b.Fatal("busyEvents disagrees with writeBusyLog")
				}
			}
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			var peak int
			var secs float64
			for b.Loop() {
				r := replayInChild(b, path, n)
				peak = max(peak, r.peakKiB)
				secs += r.seconds
			}
			b.ReportMetric(float64(peak)/1024, "peak-RSS-MiB")
			b.ReportMetric(float64(n*b.N)/secs, "events/s")
			b.ReportMetric(float64(st.Size())/(1<<20), "log-MiB")
		})
	}
}

// TestReplayAcrossChunks: a log of many chunks of the player's window
// (several thousand events each), longer than the player's look-ahead and
// with a background goroutine whose second call is at its end, replays
// whole; and a wrong result near the end of a log is found at its own
// sequence number, after the chunks before it were dropped.
func TestReplayAcrossChunks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "busy.arrow")
	n := writeBusyLog(t, path, 80_000)
	if err := probe.LoadReplay(path, probe.CheckStrict); err != nil {
		t.Fatal(err)
	}
	if r := probe.Replay(); r.Verdict != "pass" || r.Replayed != n || len(r.Notes) != 0 {
		t.Fatalf("got %+v %+v", r, r.Divergence)
	}
	const wrong = 14_000 // incall number: a log of 30,000 events has 15,000
	path = filepath.Join(t.TempDir(), "wrong.arrow")
	writeLog(t, path, 15_000, wrong)
	if err := probe.LoadReplay(path, probe.CheckStrict); err != nil {
		t.Fatal(err)
	}
	r := probe.Replay()
	if r.Verdict != "diverged" || r.Divergence == nil || r.Divergence.Seq != 2*wrong+2 || r.Divergence.Reason != "different results" {
		t.Fatalf("got %+v %+v", r, r.Divergence)
	}
}
