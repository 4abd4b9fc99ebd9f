package calcbench

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/internal/cputime"
	"github.com/rules-capture/rules_capture/runtime/probe"
)

var sink int

// BenchmarkIncall measures one boundary crossing (CALL_IN + RETURN_IN with
// two int arguments and an int result) against the uninstrumented call, in
// one run: plain, capture switched off at run time, capture on.
func BenchmarkIncall(b *testing.B) {
	if err := probe.Capture(filepath.Join(b.TempDir(), "bench.arrow")); err != nil {
		b.Fatal(err)
	}
	defer probe.Close()
	b.Run("plain", func(b *testing.B) {
		defer reportCPU(b)()
		for i := 0; i < b.N; i++ {
			sink += Plain(i, 2)
		}
	})
	b.Run("off", func(b *testing.B) {
		probe.SetCapture(false)
		defer probe.SetCapture(true)
		defer reportCPU(b)()
		for i := 0; i < b.N; i++ {
			sink += Add(i, 2)
		}
	})
	b.Run("capture", func(b *testing.B) {
		defer reportCPU(b)()
		for i := 0; i < b.N; i++ {
			sink += Add(i, 2)
		}
	})
	// The cost on the calling goroutine with a real log, through the same
	// path as a capture build (the probes call the log's Writer.Append
	// directly): events go to an event-log writer whose batch holds a
	// whole round of calls, so that its background goroutine (dictionary
	// encoding, compression, write) has nothing to do while the timer
	// runs; between rounds the timer stops while Flush writes the round.
	// "capture" is the same calls with the writer working alongside (and,
	// when it cannot keep up, blocking the caller: the Block policy).
	b.Run("caller", func(b *testing.B) {
		probe.Close() // the log of the other sub-benchmarks: this one writes its own
		w, err := probe.CaptureWith(filepath.Join(b.TempDir(), "caller.arrows"), callerOptions)
		if err != nil {
			b.Fatal(err)
		}
		defer probe.Close()
		timeRounds(b, w)
	})
	// The same through CaptureTo(w.Append), as "caller" did until
	// 2026-11-22 (a method value and an indirect call more per event than
	// a capture build): kept to compare with the numbers measured before.
	b.Run("caller-sink", func(b *testing.B) {
		w, err := eventlog.Create(filepath.Join(b.TempDir(), "caller.arrows"), eventlog.Meta{}, callerOptions)
		if err != nil {
			b.Fatal(err)
		}
		probe.CaptureTo(w.Append)
		defer probe.CaptureTo(nil)
		timeRounds(b, w)
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	})
	// The probes alone: events go to a sink that only numbers them (the
	// event log's own cost is measured in runtime/eventlog).
	b.Run("probes", func(b *testing.B) {
		var seq uint64
		probe.CaptureTo(func(*eventlog.Event) uint64 { seq++; return seq })
		defer probe.CaptureTo(nil)
		defer reportCPU(b)()
		for i := 0; i < b.N; i++ {
			sink += Add(i, 2)
		}
	})
}

// reportCPU reports allocations and, when the returned function runs, the
// process's CPU time per call (cpu-ns/op): other processes on a shared
// machine inflate wall time, not this. It includes the background log
// writer's work, which is part of what a call costs.
func reportCPU(b *testing.B) func() {
	b.ReportAllocs()
	start := cputime.Process()
	return func() {
		b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
	}
}

// round is how many calls "caller" times between two flushes (2 events
// each); callerOptions make the writer's batch hold a whole round.
const round = 1 << 17

var callerOptions = eventlog.Options{BatchEvents: 2 * round, BatchBytes: 64 * round, Buffers: 2, FlushInterval: time.Hour}

// timeRounds calls Add b.N times in rounds, with the timer and the CPU
// clock running only during the rounds, and flushes w after each. One
// untimed round first touches the writer's batch memory (tens of MB at
// these batch sizes, allocated once per log): the page faults are not a
// per-call cost.
func timeRounds(b *testing.B, w *eventlog.Writer) {
	for i := 0; i < round; i++ {
		sink += Add(i, 2)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	// No garbage collection left running from the sub-benchmarks before
	// (its workers' CPU time would count).
	runtime.GC()
	b.ReportAllocs()
	var cpu time.Duration
	b.ResetTimer()
	for done := 0; done < b.N; {
		n := min(round, b.N-done)
		cpu0 := cputime.Process()
		for i := 0; i < n; i++ {
			sink += Add(i, 2)
		}
		cpu += cputime.Process() - cpu0
		done += n
		b.StopTimer()
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkIncallGoroutines is "caller" from many goroutines at once: the
// probes of one boundary crossing (CALL_IN + RETURN_IN, two ints in, one
// out) with a real log, the writer's background work kept out of the timed
// rounds as in "caller", appended from 1, from 8 and from one goroutine per
// P (goroutines=procs: run with -cpu 1,2,4,8,16 to see how the cost per call
// on the callers scales with the cores calling). Each goroutine is its own
// stream; all of them take their sequence numbers from the one log.
func BenchmarkIncallGoroutines(b *testing.B) {
	for _, goroutines := range []int{1, 8, 0} {
		name := fmt.Sprintf("goroutines=%d", goroutines)
		if goroutines == 0 {
			name, goroutines = "goroutines=procs", runtime.GOMAXPROCS(0)
		}
		b.Run(name, func(b *testing.B) {
			w, err := probe.CaptureWith(filepath.Join(b.TempDir(), "caller.arrows"), callerOptions)
			if err != nil {
				b.Fatal(err)
			}
			defer probe.Close()
			// The workers live for the whole benchmark (a goroutine per
			// round would be a new stream per round) and run one round's
			// share each time start is signalled.
			start := make([]chan int, goroutines)
			var wg sync.WaitGroup
			for g := range start {
				start[g] = make(chan int)
				go func() {
					for n := range start[g] {
						for i := 0; i < n; i++ {
							sink1(Add(i, g))
						}
						wg.Done()
					}
				}()
			}
			defer func() {
				for _, c := range start {
					close(c)
				}
			}()
			runRound := func(n int) {
				wg.Add(goroutines)
				for g, c := range start {
					per := n / goroutines
					if g == 0 {
						per += n % goroutines
					}
					c <- per
				}
				wg.Wait()
			}
			runRound(round) // first touch of the batch memory, streams made
			if err := w.Flush(); err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			b.ReportAllocs()
			var cpu time.Duration
			b.ResetTimer()
			for done := 0; done < b.N; {
				n := min(round, b.N-done)
				cpu0 := cputime.Process()
				runRound(n)
				cpu += cputime.Process() - cpu0
				done += n
				b.StopTimer()
				if err := w.Flush(); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.StopTimer()
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// sinks holds one result per goroutine slot, so that parallel callers do
// not all write sink (a data race, and false sharing in the timing).
var sinks [64]struct {
	v int
	_ [56]byte
}

func sink1(v int) { sinks[v&63].v = v }
