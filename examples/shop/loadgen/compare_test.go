package loadgen

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestCompareAlternatesAndRatios(t *testing.T) {
	var mu sync.Mutex
	var order []string
	serve := func(name string, shop *fakeShop) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/products" && r.Method == http.MethodGet && r.Header.Get("Content-Type") == "" {
				mu.Lock()
				if len(order) == 0 || order[len(order)-1] != name {
					order = append(order, name)
				}
				mu.Unlock()
			}
			shop.ServeHTTP(w, r)
		}))
	}
	fast := &fakeShop{paths: map[string]int{}}
	// The delay dwarfs what a loaded machine adds to the fast server's median
	// (its tail may not be: p99 is only checked against the delay itself).
	slow := &fakeShop{paths: map[string]int{}, delay: 50 * time.Millisecond}
	a, b := serve("a", fast), serve("b", slow)
	defer a.Close()
	defer b.Close()

	cfg := Config{Seed: 5, Requests: 40, Warmup: 4, Concurrency: 2}
	c, err := Compare(context.Background(), cfg, [2]Target{{Name: "fast", URL: a.URL}, {Name: "slow", URL: b.URL}}, 3)
	if err != nil {
		t.Fatal(err)
	}
	// A B, B A, A B: both servers see the same number of runs, neither
	// always goes first.
	if want := []string{"a", "b", "a", "b"}; !slices.Equal(order, want) {
		t.Errorf("runs went to %v, want %v (a, b, b, a, a, b with repeats merged)", order, want)
	}
	for name, shop := range map[string]*fakeShop{"fast": fast, "slow": slow} {
		if got, want := shop.requests.Load(), int64(3*(1+4+40)); got != want {
			t.Errorf("%s saw %d requests, want %d", name, got, want)
		}
	}
	if len(c.Runs) != 3 || c.Runs[1][0].Requests != 40 || c.Runs[1][1].Seed != 5 {
		t.Fatalf("runs: %+v", c.Runs)
	}
	// The slow server costs 50ms a request: lower throughput, higher latency.
	if c.Ratio.Throughput >= 1 || c.Ratio.P50 <= 1 {
		t.Errorf("ratios slow/fast = %+v, want throughput < 1 and p50 > 1", c.Ratio)
	}
	if want := c.Median[1].P50 / c.Median[0].P50; c.Ratio.P50 != want {
		t.Errorf("p50 ratio %v, want the medians' ratio %v", c.Ratio.P50, want)
	}
	if c.Median[1].P50 < 50 || c.Median[1].P99 < 50 {
		t.Errorf("slow median p50 %.3f ms, p99 %.3f ms, want at least the 50ms delay", c.Median[1].P50, c.Median[1].P99)
	}
	var out strings.Builder
	if err := c.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "ratio  slow/fast") {
		t.Errorf("text output lacks the ratio line:\n%s", out.String())
	}
}

func TestCompareRefusesFailures(t *testing.T) {
	ok := httptest.NewServer(&fakeShop{paths: map[string]int{}})
	defer ok.Close()
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/products" {
			w.Write([]byte(`[{"sku":"A"}]`))
			return
		}
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	defer broken.Close()
	_, err := Compare(context.Background(), Config{Seed: 1, Requests: 10, Concurrency: 1},
		[2]Target{{Name: "ok", URL: ok.URL}, {Name: "broken", URL: broken.URL}}, 1)
	if err == nil || !strings.Contains(err.Error(), "broken failed") {
		t.Fatalf("Compare against a failing server: %v, want an error naming it", err)
	}
}

func TestMedianAndParseTargets(t *testing.T) {
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median odd = %v", m)
	}
	if m := median([]float64{4, 1, 2, 3}); m != 2.5 {
		t.Errorf("median even = %v", m)
	}
	ts, err := ParseTargets("shop=http://a:1,shop_capture=http://b:2")
	if err != nil || ts[0] != (Target{Name: "shop", URL: "http://a:1"}) || ts[1] != (Target{Name: "shop_capture", URL: "http://b:2"}) {
		t.Errorf("ParseTargets = %v, %v", ts, err)
	}
	for _, bad := range []string{"http://a", "a=http://a", "a=x,b", "=x,b=y"} {
		if _, err := ParseTargets(bad); err == nil {
			t.Errorf("ParseTargets(%q) accepted", bad)
		}
	}
}

func TestMedianInterval(t *testing.T) {
	xs := []float64{15, 3, 9, 1, 12, 6, 14, 2, 8, 11, 4, 13, 7, 10, 5} // 1..15, shuffled
	lo, hi, cov, ok := medianInterval(xs, 0.90)
	// n = 15: P(Bin(15, 1/2) <= 3) = 576/32768, so [x(4), x(12)] covers
	// 1 - 2*576/32768 = 96.5%; k = 5 would cover only 88.2%.
	if !ok || lo != 4 || hi != 12 || math.Abs(cov-(1-2*576.0/32768)) > 1e-12 {
		t.Errorf("medianInterval(1..15, 0.90) = [%v, %v] at %v (ok %v), want [4, 12] at 0.9648", lo, hi, cov, ok)
	}
	if _, _, _, ok := medianInterval([]float64{1, 2, 3, 4, 5}, 0.95); ok {
		t.Error("5 values gave a 95% interval of their median; their full range covers only 93.75%")
	}
	lo, hi, _, ok = medianInterval([]float64{1, 2, 3, 4, 5, 6}, 0.95)
	if !ok || lo != 1 || hi != 6 {
		t.Errorf("6 values at 95%%: [%v, %v] ok %v, want the full range [1, 6] (96.9%%)", lo, hi, ok)
	}
}

func TestComparePairsEachRound(t *testing.T) {
	fast := httptest.NewServer(&fakeShop{paths: map[string]int{}})
	slow := httptest.NewServer(&fakeShop{paths: map[string]int{}, delay: 20 * time.Millisecond})
	defer fast.Close()
	defer slow.Close()
	cfg := Config{Seed: 3, Requests: 20, Warmup: 2, Concurrency: 2}
	c, err := Compare(context.Background(), cfg, [2]Target{{Name: "fast", URL: fast.URL}, {Name: "slow", URL: slow.URL}}, 6)
	if err != nil {
		t.Fatal(err)
	}
	var own []float64
	for _, r := range c.Runs {
		own = append(own, r[1].Throughput/r[0].Throughput)
	}
	if want := median(own); c.Paired.Throughput != want || want >= 1 {
		t.Errorf("paired throughput ratio %v, want the median of the rounds' ratios %v (below 1)", c.Paired.Throughput, want)
	}
	lo, hi := c.ThroughputInterval[0], c.ThroughputInterval[1]
	if c.Confidence < 0.9 || lo > c.Paired.Throughput || hi < c.Paired.Throughput || lo != slices.Min(own) || hi != slices.Max(own) {
		t.Errorf("6 rounds: interval [%v, %v] at %v, want the rounds' full range [%v, %v] at 0.969", lo, hi, c.Confidence, slices.Min(own), slices.Max(own))
	}
	var out strings.Builder
	c.WriteText(&out)
	if !strings.Contains(out.String(), "paired throughput ratio") {
		t.Errorf("text output lacks the paired interval:\n%s", out.String())
	}
}

// Both servers run in the test's own process, so each round's CPU time is
// what the load generator and the server of that run used; the busy server
// burns 4ms of CPU per request, the other 1ms, far above the load
// generator's share; /proc's times are whole 10ms ticks, so a run's
// difference is off by up to 10ms, less than 10% of the light server's
// 121 requests.
func TestCompareCPUPerRequest(t *testing.T) {
	if _, err := processCPU(os.Getpid()); err != nil {
		t.Skipf("no /proc CPU times here: %v", err)
	}
	light := httptest.NewServer(&fakeShop{paths: map[string]int{}, spin: time.Millisecond})
	busy := httptest.NewServer(&fakeShop{paths: map[string]int{}, spin: 4 * time.Millisecond})
	defer light.Close()
	defer busy.Close()
	pid := os.Getpid()
	cfg := Config{Seed: 7, Requests: 116, Warmup: 4, Concurrency: 2}
	c, err := Compare(context.Background(), cfg, [2]Target{{Name: "light", URL: light.URL, PID: pid}, {Name: "busy", URL: busy.URL, PID: pid}}, 6)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.CPU) != 6 {
		t.Fatalf("CPU per request of %d rounds, want 6", len(c.CPU))
	}
	t.Logf("CPU us per request (light, busy) by round: %.0f", c.CPU)
	var own []float64
	for i, r := range c.CPU {
		if r[0] < 900 || r[1] < 3600 { // 1ms and 4ms less a tick over 121 requests
			t.Errorf("round %d: %.0f and %.0f us of CPU per request, want at least the 1ms and 4ms the servers burn", i+1, r[0], r[1])
		}
		own = append(own, r[1]/r[0])
	}
	if want := median(own); c.PairedCPU != want || want < 2 {
		t.Errorf("paired CPU ratio %v, want the median of the rounds' ratios %v (at least 2); rounds %v", c.PairedCPU, want, c.CPU)
	}
	if c.CPUConfidence < 0.9 || c.CPUInterval[0] != slices.Min(own) || c.CPUInterval[1] != slices.Max(own) {
		t.Errorf("6 rounds: CPU interval %v at %v, want the rounds' full range at 0.969", c.CPUInterval, c.CPUConfidence)
	}
	var busyCPU []float64
	for _, r := range c.CPU {
		busyCPU = append(busyCPU, r[1])
	}
	if c.MedianCPU[1] != median(busyCPU) {
		t.Errorf("busy server's median CPU per request %v, want %v", c.MedianCPU[1], median(busyCPU))
	}
	var out strings.Builder
	c.WriteText(&out)
	if !strings.Contains(out.String(), "paired cpu per request ratio") || !strings.Contains(out.String(), "cpu us/req") {
		t.Errorf("text output lacks the CPU column or ratio:\n%s", out.String())
	}

	// Without PIDs nothing is measured.
	c, err = Compare(context.Background(), Config{Seed: 7, Requests: 4, Concurrency: 1}, [2]Target{{Name: "light", URL: light.URL}, {Name: "busy", URL: busy.URL, PID: pid}}, 1)
	if err != nil || c.CPU != nil || c.PairedCPU != 0 {
		t.Errorf("one target without a PID: CPU %v, paired %v, err %v; want nothing measured", c.CPU, c.PairedCPU, err)
	}
}

func TestParseStatCPU(t *testing.T) {
	// A command name with spaces and a ')' of its own; utime 250, stime 50
	// ticks of 10ms.
	line := "4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 912 0 0 0 250 50 0 0 20 0 7 0 1234 0 0\n"
	if d, err := parseStatCPU([]byte(line)); err != nil || d != 3*time.Second {
		t.Errorf("parseStatCPU = %v, %v; want 3s", d, err)
	}
	for _, bad := range []string{"", "4242 (x) S 1 2", "4242 (x) S 1 2 3 4 5 6 7 8 9 10 x 50 0"} {
		if _, err := parseStatCPU([]byte(bad)); err == nil {
			t.Errorf("parseStatCPU(%q) accepted", bad)
		}
	}
}
