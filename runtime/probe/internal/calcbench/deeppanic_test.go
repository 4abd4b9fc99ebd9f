package calcbench

import (
	"bytes"
	"fmt"
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

// tooDeep is the panic value raised at the bottom of descend's recursion.
const tooDeep = "recursion too deep"

// recurse recurses through the boundary to depth levels (an incall of
// Descend and an outcall of the callback per level) and panics there, as
// go-cmp's recursion check does.
func recurse(levels int) {
	var step func(depth int)
	step = func(depth int) {
		if depth == levels {
			bottom()
		}
		Descend(depth+1, step)
	}
	Descend(1, step)
}

// bottom raises the panic at the bottom of the recursion.
func bottom() { panic(tooDeep) }

// descend is recurse(levels), recovered: it returns the panic's value.
func descend(levels int) (r any) {
	defer func() { r = recover() }()
	recurse(levels)
	return nil
}

// BenchmarkDeepPanic measures a panic unwinding through n boundary levels
// (2n boundary frames: Descend and its callback), with capture off and with
// the probes on (events handed to a counting function). When every level
// re-panicked inside its deferred call, the Go runtime nested n panics at a
// cost growing faster than n² (go-cmp's cmp.TestDiff, through its recursive
// transformers, did not finish in 30 minutes; study repro deeppanic).
func BenchmarkDeepPanic(b *testing.B) {
	for _, levels := range []int{100, 1000, 3000} {
		b.Run(fmt.Sprintf("off/levels=%d", levels), func(b *testing.B) {
			probe.SetCapture(false)
			defer probe.SetCapture(true)
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				if r := descend(levels); r != tooDeep {
					b.Fatalf("recovered %v", r)
				}
			}
		})
		b.Run(fmt.Sprintf("probes/levels=%d", levels), func(b *testing.B) {
			var seq uint64
			probe.CaptureTo(func(*eventlog.Event) uint64 { seq++; return seq })
			defer probe.CaptureTo(nil)
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				if r := descend(levels); r != tooDeep {
					b.Fatalf("recovered %v", r)
				}
			}
		})
	}
}

// panicSite is where bottom raises its panic: "calcbench/deeppanic_test.go:N",
// read off the stack of a panic of bottom's (not from the source file,
// which is not among a Bazel test's runfiles).
func panicSite(t *testing.T) string {
	t.Helper()
	var site string
	func() {
		defer func() {
			recover()
			pcs := make([]uintptr, 16)
			frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
			for f, more := frames.Next(); more; f, more = frames.Next() {
				if f.Function == "runtime.gopanic" {
					f, _ = frames.Next() // the frame that called panic
					site = fmt.Sprintf("calcbench/%s:%d", filepath.Base(f.File), f.Line)
					return
				}
			}
		}()
		bottom()
	}()
	if site == "" {
		t.Fatal("no runtime.gopanic frame on the stack of bottom's panic")
	}
	return site
}

// TestDeepPanicEvents: a panic through n levels records, innermost first,
// a PANIC_IN (the callback, an outcall) and a PANIC_OUT (Descend) per level,
// each ending its own call, all with the value and the site where the panic
// was raised (every frame after the first once recorded the probe's own
// line instead), whether the frame re-panicked nested or not.
func TestDeepPanicEvents(t *testing.T) {
	site := panicSite(t)
	for _, levels := range []int{1, 3, 50} {
		recorded := captureEvents()
		if r := descend(levels); r != tooDeep {
			t.Fatalf("%d levels: recovered %v", levels, r)
		}
		probe.CaptureTo(nil)
		events := recorded()
		if len(events) != 4*levels {
			t.Fatalf("%d levels: %d events, want %d", levels, len(events), 4*levels)
		}
		calls, panics := events[:2*levels], events[2*levels:]
		for i, e := range panics {
			call := calls[len(calls)-1-i]
			want := eventlog.KindPanicIn
			if call.Kind == eventlog.KindCallIn {
				want = eventlog.KindPanicOut
			}
			if e.Kind != want || e.Parent != call.Seq {
				t.Fatalf("%d levels, panic event %d: %v with parent %d, want %v ending call %d", levels, i, e.Kind, e.Parent, want, call.Seq)
			}
			vals, _ := value.Split(e.Values)
			if len(vals) != 2 {
				t.Fatalf("%d levels, panic event %d: %d values, want the panic and its site", levels, i, len(vals))
			}
			v, _, _ := value.RenderOne(vals[0], 0)
			pos, _, _ := value.RenderOne(vals[1], 0)
			if want := fmt.Sprintf("string(%q)", tooDeep); v != want || pos != strconv.Quote(site) {
				t.Errorf("%d levels, panic event %d: %s at %s, want %s at %q", levels, i, v, pos, want, site)
				break
			}
		}
	}
}

// nestedPanics counts the panics in flight on the calling goroutine: the
// runtime.gopanic frames on its stack.
func nestedPanics() int {
	pcs := make([]uintptr, 1<<16)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	n := 0
	for {
		fr, more := frames.Next()
		if fr.Function == "runtime.gopanic" {
			n++
		}
		if !more {
			return n
		}
	}
}

// TestDeepPanicIsNotNested: where the recursion's caller recovers, a panic
// that left a few boundary frames is still nested in one re-panic per
// frame, the frames where it was raised still on the stack (what a crash's
// traceback shows); one that left many is a single fresh panic (nesting one
// per frame cost more than n²: study repro deeppanic).
func TestDeepPanicIsNotNested(t *testing.T) {
	captureEvents()
	defer probe.CaptureTo(nil)
	for _, c := range []struct{ levels, want int }{
		{2, 1 + 2*2}, // the original panic and one per boundary frame (2 per level)
		{100, 1},
	} {
		var got int
		func() {
			defer func() {
				got = nestedPanics()
				recover()
			}()
			recurse(c.levels)
		}()
		if got != c.want {
			t.Errorf("%d levels: %d panics in flight where the caller recovers, want %d", c.levels, got, c.want)
		}
	}
}

// TestGoexitThroughLevels: runtime.Goexit deep in the recursion ends every
// boundary frame without an event, runs the deferred calls, and leaves the
// goroutine's stream with no open frame.
func TestGoexitThroughLevels(t *testing.T) {
	recorded := captureEvents()
	defer probe.CaptureTo(nil)
	const levels = 30
	deferred := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		var step func(depth int)
		step = func(depth int) {
			defer func() { deferred++ }()
			if depth == levels {
				runtime.Goexit()
			}
			Descend(depth+1, step)
		}
		Descend(1, step)
		t.Error("Descend returned after runtime.Goexit")
	}()
	<-done
	probe.CaptureTo(nil)
	if deferred != levels {
		t.Errorf("%d deferred calls ran, want %d", deferred, levels)
	}
	for _, e := range recorded() {
		if e.Kind != eventlog.KindCallIn && e.Kind != eventlog.KindCallOut {
			t.Errorf("event %v after runtime.Goexit: the frames end without events", e.Kind)
		}
	}
}

// TestPanicNilThroughLevels: panic(nil) goes on through every frame as the
// runtime's *runtime.PanicNilError (Go 1.21), the same error that the
// caller recovers.
func TestPanicNilThroughLevels(t *testing.T) {
	recorded := captureEvents()
	defer probe.CaptureTo(nil)
	for _, levels := range []int{2, 30} {
		var raised any
		r := func() (r any) {
			defer func() { r = recover() }()
			var step func(depth int)
			step = func(depth int) {
				if depth == levels {
					defer func() {
						raised = recover()
						panic(raised)
					}()
					panic(nil)
				}
				Descend(depth+1, step)
			}
			Descend(1, step)
			return nil
		}()
		if _, ok := r.(*runtime.PanicNilError); !ok || r != raised {
			t.Errorf("%d levels: recovered %#v, want the *runtime.PanicNilError raised (%p)", levels, r, raised)
		}
	}
	probe.CaptureTo(nil)
	panics := 0
	for _, e := range recorded() {
		if e.Kind == eventlog.KindPanicIn || e.Kind == eventlog.KindPanicOut {
			panics++
		}
	}
	if panics != 2*(2+30) {
		t.Errorf("%d panic events, want one per boundary frame (%d)", panics, 2*(2+30))
	}
}

// crashEnv makes the test binary a child that crashes: descend without a
// recover, at the depth the variable says.
const crashEnv = "CALCBENCH_CRASH_LEVELS"

// TestCrashTraceback: a panic that no one recovers crashes the process with
// a traceback. Through a few boundary frames it still shows the frame where
// the panic was raised (the frames re-panic nested); through many, it
// holds a bounded number of nested panics (one per frame made the runtime
// pay more than n², study repro deeppanic), and starts where the probe
// raised it again (docs/limitations.md).
func TestCrashTraceback(t *testing.T) {
	if levels := os.Getenv(crashEnv); levels != "" {
		n, _ := strconv.Atoi(levels)
		probe.CaptureTo(func(*eventlog.Event) uint64 { return 1 })
		// On a goroutine of its own: the testing package's recover and
		// re-panic would add a panic to the traceback.
		go recurse(n)
		select {}
	}
	site := strings.TrimPrefix(panicSite(t), "calcbench/")
	for _, c := range []struct {
		levels   int
		wantSite bool
	}{{2, true}, {200, false}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashTraceback$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", crashEnv, c.levels))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
			t.Fatalf("%d levels: %v, want the exit status 2 of a panic; stderr:\n%s", c.levels, err, stderr.String())
		}
		out := stderr.String()
		if !strings.HasPrefix(out, "panic: "+tooDeep) {
			t.Errorf("%d levels: stderr does not begin with the panic:\n%s", c.levels, out)
		}
		if c.wantSite && !strings.Contains(out, site) {
			t.Errorf("%d levels: the traceback lacks the panic's site %s:\n%s", c.levels, site, out)
		}
		nested := 0
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "panic(") {
				nested++
			}
		}
		// The traceback starts in the function that raised the last panic;
		// each earlier panic in flight shows as a runtime frame panic(...).
		if want := 2 * c.levels; c.wantSite && nested != want {
			t.Errorf("%d levels: %d earlier panics in the traceback, want %d (one per boundary frame, nested):\n%s", c.levels, nested, want, out)
		} else if !c.wantSite && nested != 0 {
			t.Errorf("%d levels: %d earlier panics in the traceback, want none (a fresh panic):\n%.3000s", c.levels, nested, out)
		}
	}
}

// TestDeepPanicFlushesOnce: a panic through many boundary frames flushes
// the log once, when it leaves the goroutine's outermost frame (the process
// can die of it only after that), not at every frame: one flush per frame
// wrote one batch per PANIC_OUT (go-cmp's cmp.TestDiff: 56.5 MB of log
// and 40% of its capture CPU). The log of a recursion that
// panics is about as large as the log of the same recursion returning.
func TestDeepPanicFlushesOnce(t *testing.T) {
	const levels = 500
	size := func(name string, run func()) int64 {
		path := filepath.Join(t.TempDir(), name+".arrows")
		// One batch holds the whole log unless something flushes it.
		if _, err := probe.CaptureWith(path, eventlog.Options{BatchEvents: 1 << 16, BatchBytes: 1 << 26, FlushInterval: time.Hour, Compression: eventlog.Uncompressed}); err != nil {
			t.Fatal(err)
		}
		run()
		probe.Close()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	returned := size("returns", func() {
		var step func(depth int)
		step = func(depth int) {
			if depth < levels {
				Descend(depth+1, step)
			}
		}
		Descend(1, step)
	})
	panicked := size("panics", func() {
		if r := descend(levels); r != tooDeep {
			t.Fatalf("recovered %v", r)
		}
	})
	t.Logf("%d levels: %d bytes panicking, %d returning", levels, panicked, returned)
	if panicked > 2*returned {
		t.Errorf("the log of a panic through %d levels has %d bytes, of the same calls returning %d: more than twice (a flush per frame?)", levels, panicked, returned)
	}
}
