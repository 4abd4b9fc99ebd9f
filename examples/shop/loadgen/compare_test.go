package loadgen

import (
	"context"
	"net/http"
	"net/http/httptest"
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
	c, err := Compare(context.Background(), cfg, [2]Target{{"fast", a.URL}, {"slow", b.URL}}, 3)
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
		[2]Target{{"ok", ok.URL}, {"broken", broken.URL}}, 1)
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
	if err != nil || ts[0] != (Target{"shop", "http://a:1"}) || ts[1] != (Target{"shop_capture", "http://b:2"}) {
		t.Errorf("ParseTargets = %v, %v", ts, err)
	}
	for _, bad := range []string{"http://a", "a=http://a", "a=x,b", "=x,b=y"} {
		if _, err := ParseTargets(bad); err == nil {
			t.Errorf("ParseTargets(%q) accepted", bad)
		}
	}
}
