package loadgen

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseGCTraceLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want time.Duration
	}{
		// STW sweep termination and mark termination at their wall time
		// (0.021, 0.030), the marks' assist, background and idle CPU
		// (0.40, 0.95, 0.20); not the STW phases times the Ps (0.042, 0.060).
		{"gc 7 @0.512s 2%: 0.021+1.2+0.030 ms clock, 0.042+0.40/0.95/0.20+0.060 ms cpu, 4->4->1 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P\n",
			1601 * time.Microsecond},
		{"gc 12 @10.003s 0% (checking for goroutine leaks): 0+3+0.5 ms clock, 0+1/2/0+4 ms cpu, 300->310->2 MB, 512 MB goal, 0 MB stacks, 0 MB globals, 16 P (forced)\n",
			3500 * time.Microsecond},
	} {
		got, err := parseGCTraceLine([]byte(tc.line))
		if err != nil || got.Round(time.Microsecond) != tc.want {
			t.Errorf("parseGCTraceLine(%q) = %v, %v; want %v", tc.line, got, err, tc.want)
		}
	}
	for _, bad := range []string{
		"gc 7 @0.512s 2%: 0.021+1.2 ms clock, 0.042+0.40/0.95/0.20+0.060 ms cpu\n",
		"gc 7 @0.512s 2%: 0.021+1.2+0.030 ms clock, 0.042+0.40/0.95+0.060 ms cpu\n",
		"gc 7 @0.512s 2%: 0.021+1.2+0.030 ms clock, 0.042+0.40/x/0.20+0.060 ms cpu\n",
		"gc 7 @0.512s 2%: 0.021+1.2+0.030 ms clock, 0.042+0.40/-1/0.20+0.060 ms cpu\n",
		"gc 7 @0.512s 2%: 0.021+1.2+0.030 ms clock\n",
	} {
		if d, err := parseGCTraceLine([]byte(bad)); err == nil {
			t.Errorf("parseGCTraceLine(%q) = %v, accepted", bad, d)
		}
	}
}

// The trace is read as it grows: a line is counted once it is complete, a
// program's own lines are ignored, and a collection's line that does not
// parse is counted as unreadable rather than as no collection.
func TestGCTraceRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "server.out")
	appendText := func(s string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	line := func(n int, markMS string) string {
		return fmt.Sprintf("gc %d @1.000s 1%%: 0.010+2+0.020 ms clock, 0.020+%s/1/0+0.040 ms cpu, 4->4->1 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P\n", n, markMS)
	}
	tr := &gcTrace{path: path}
	if _, err := tr.read(); err == nil {
		t.Errorf("read of a missing file: no error")
	}
	appendText("time=... level=INFO msg=\"shop listening\"\n" + line(1, "0.5") + "gc 2 @1.1s 1%: garbled\n")
	half := line(3, "2")
	appendText(half[:40])
	u, err := tr.read()
	if want := (gcUsage{CPU: 1530 * time.Microsecond, Cycles: 1, Unreadable: 1}); err != nil || u != want {
		t.Errorf("first read = %+v, %v; want %+v", u, err, want)
	}
	appendText(half[40:] + "gcx 4 @1s not a collection\n" + line(5, "0"))
	u, err = tr.read()
	if want := (gcUsage{CPU: (3030 + 1030) * time.Microsecond, Cycles: 2}); err != nil || u != want {
		t.Errorf("second read = %+v, %v; want %+v", u, err, want)
	}
	if u, err := tr.read(); err != nil || u != (gcUsage{}) {
		t.Errorf("read with nothing new = %+v, %v", u, err)
	}
}

// gcTracingShop appends a collection's trace line claiming gc of CPU to
// trace at every request, as a server under GODEBUG=gctrace=1 whose
// collections cost gc per request would.
func gcTracingShop(t *testing.T, shop *fakeShop, trace string, gc time.Duration) http.Handler {
	var mu sync.Mutex
	n := 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		f, err := os.OpenFile(trace, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			_, err = fmt.Fprintf(f, "gc %d @1.000s 1%%: 0+1+0 ms clock, 0+0/%g/0+0 ms cpu, 4->4->1 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P\n",
				n, float64(gc)/float64(time.Millisecond))
			f.Close()
		}
		mu.Unlock()
		if err != nil {
			t.Error(err)
		}
		shop.ServeHTTP(w, r)
	})
}

// Both servers burn 2ms of CPU per request (the same spin, so that what the
// spinning adds to the process, such as the runtime's threads, is the same
// too); the GC trace claims 1.5ms of it for "collecting", 0.5ms for "lean".
// The CPU ratio is about 1, the ratio without the GC (0.5ms + the requests'
// own cost) / (1.5ms + the same) well below it. Collections that ended
// before the comparison (the 1s line written first) belong to no run.
func TestCompareCPUExcludingGC(t *testing.T) {
	if _, err := processCPU(os.Getpid()); err != nil {
		t.Skipf("no /proc CPU times here: %v", err)
	}
	dir := t.TempDir()
	traces := [2]string{filepath.Join(dir, "light.out"), filepath.Join(dir, "busy.out")}
	if err := os.WriteFile(traces[0], nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(traces[1], []byte("gc 1 @0.1s 1%: 0+1+0 ms clock, 0+0/1000/0+0 ms cpu, 4->4->1 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lean := httptest.NewServer(gcTracingShop(t, &fakeShop{paths: map[string]int{}, spin: 2 * time.Millisecond}, traces[0], 500*time.Microsecond))
	collecting := httptest.NewServer(gcTracingShop(t, &fakeShop{paths: map[string]int{}, spin: 2 * time.Millisecond}, traces[1], 1500*time.Microsecond))
	defer lean.Close()
	defer collecting.Close()
	pid := os.Getpid()
	cfg := Config{Seed: 7, Requests: 116, Warmup: 4, Concurrency: 2}
	c, err := Compare(context.Background(), cfg, [2]Target{
		{Name: "lean", URL: lean.URL, PID: pid, GCTrace: traces[0]},
		{Name: "collecting", URL: collecting.URL, PID: pid, GCTrace: traces[1]},
	}, 6)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.GC) != 6 || c.GCUnreadable != 0 {
		t.Fatalf("GC of %d rounds (%d unreadable lines), want 6 (0)", len(c.GC), c.GCUnreadable)
	}
	t.Logf("CPU us per request (lean, collecting) by round: %.0f; GC: %v", c.CPU, c.GC)
	var own []float64
	for i, r := range c.GC {
		// One line per request answered: the catalogue, the warm-up, the measured.
		for k, want := range [2]GCRun{{CPU: 500, PerK: 1000, Cycles: 121}, {CPU: 1500, PerK: 1000, Cycles: 121}} {
			if math.Abs(r[k].CPU-want.CPU) > 0.5 || r[k].PerK != want.PerK || r[k].Cycles != want.Cycles {
				t.Errorf("round %d, %s: GC %+v, want %+v", i+1, c.Targets[k].Name, r[k], want)
			}
		}
		own = append(own, (c.CPU[i][1]-r[1].CPU)/(c.CPU[i][0]-r[0].CPU))
	}
	if want := median(own); c.PairedCPUExGC != want {
		t.Errorf("paired CPU ratio without GC %v, want the median of the rounds' ratios %v; rounds %v", c.PairedCPUExGC, want, own)
	}
	// The same CPU per request, give or take a 10ms /proc tick over 121
	// requests and a loaded machine; without the GC 0.33 if the requests
	// cost nothing else, 0.6 if they cost another 1ms.
	if c.PairedCPU < 0.8 || c.PairedCPU > 1.25 || c.PairedCPUExGC > 0.75 {
		t.Errorf("paired CPU ratio %.3f, without GC %.3f; want about 1, and below 0.75", c.PairedCPU, c.PairedCPUExGC)
	}
	if c.CPUExGCConfidence < 0.9 || c.CPUExGCInterval[0] != slices.Min(own) || c.CPUExGCInterval[1] != slices.Max(own) {
		t.Errorf("6 rounds: interval %v at %v, want the rounds' full range at 0.969", c.CPUExGCInterval, c.CPUExGCConfidence)
	}
	if c.MedianGC[1].CPU < 1499.5 || c.MedianGC[1].PerK != 1000 {
		t.Errorf("collecting server's median GC %+v, want 1500 us and 1000 per 1000 requests", c.MedianGC[1])
	}
	if want := (GCRun{CPU: 1500, PerK: 1000, Cycles: 6 * 121}); math.Abs(c.AllRoundsGC[1].CPU-want.CPU) > 0.5 || c.AllRoundsGC[1].PerK != want.PerK || c.AllRoundsGC[1].Cycles != want.Cycles {
		t.Errorf("collecting server's GC over all rounds %+v, want %+v", c.AllRoundsGC[1], want)
	}
	var out strings.Builder
	c.WriteText(&out)
	for _, want := range []string{"gc us/req", "gc/1k req", "paired cpu per request ratio excluding gc", "gc over all rounds: lean 500.0 us per request, 726 collections (1000.00 per 1,000 requests)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}

	// A trace for one target only measures no GC.
	c, err = Compare(context.Background(), Config{Seed: 7, Requests: 4, Concurrency: 1}, [2]Target{
		{Name: "lean", URL: lean.URL, PID: pid, GCTrace: traces[0]},
		{Name: "collecting", URL: collecting.URL, PID: pid},
	}, 1)
	if err != nil || c.GC != nil || c.PairedCPUExGC != 0 {
		t.Errorf("one target without a trace: GC %v, paired %v, err %v; want nothing measured", c.GC, c.PairedCPUExGC, err)
	}
}
