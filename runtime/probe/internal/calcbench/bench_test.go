package calcbench

import (
	"path/filepath"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
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
	start := processCPU()
	return func() {
		b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
	}
}
