package loadgen

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

var skus = []string{"TEA-1", "COF-1", "EQP-1", "MER-1"}

func steps(t *testing.T, seed uint64, n int) []string {
	t.Helper()
	w, err := NewWorkload(seed, skus, DefaultMix)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, n)
	for i := range out {
		s := w.Next()
		out[i] = fmt.Sprintf("%v %d %s", s.Op, s.Pick, s.Body())
	}
	return out
}

func TestWorkloadIsReproducible(t *testing.T) {
	a, b := steps(t, 42, 2000), steps(t, 42, 2000)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed planned different requests")
	}
	c := steps(t, 43, 2000)
	same := 0
	for i := range a {
		if a[i] == c[i] {
			same++
		}
	}
	if same > 1000 {
		t.Fatalf("seeds 42 and 43 agree on %d of 2000 steps", same)
	}
	// The catalogue's order does not matter, only its contents.
	w, _ := NewWorkload(42, []string{"MER-1", "EQP-1", "COF-1", "TEA-1"}, DefaultMix)
	for i := range 2000 {
		s := w.Next()
		if got := fmt.Sprintf("%v %d %s", s.Op, s.Pick, s.Body()); got != a[i] {
			t.Fatalf("step %d differs with a reordered catalogue", i)
		}
	}
}

func TestWorkloadFollowsMix(t *testing.T) {
	mix := Mix{OpProducts: 10, OpQuote: 60, OpOrder: 30}
	w, err := NewWorkload(7, skus, mix)
	if err != nil {
		t.Fatal(err)
	}
	var count [numOps]int
	const n = 20000
	for range n {
		s := w.Next()
		count[s.Op]++
		if (s.Op == OpQuote || s.Op == OpOrder) != (s.Cart != nil) {
			t.Fatalf("%v step with cart %v", s.Op, s.Cart)
		}
		if s.Cart != nil {
			if len(s.Cart.Items) < 1 || len(s.Cart.Items) > 4 {
				t.Fatalf("cart with %d items", len(s.Cart.Items))
			}
			if (s.Op == OpOrder) != (s.Cart.Customer != "") {
				t.Fatalf("%v with customer %q", s.Op, s.Cart.Customer)
			}
		}
	}
	// Binomial standard deviation at n=20000 is at most ~70; allow 6 sigma.
	for op, w := range mix {
		want := n * w / 100
		if d := count[op] - want; d < -420 || d > 420 {
			t.Errorf("%v: %d of %d steps, want about %d", Op(op), count[op], n, want)
		}
	}
}

func TestParseMix(t *testing.T) {
	m, err := ParseMix("quote=3, order=1")
	if err != nil || m != (Mix{OpQuote: 3, OpOrder: 1}) {
		t.Fatalf("ParseMix = %v, %v", m, err)
	}
	if back, err := ParseMix(DefaultMix.String()); err != nil || back != DefaultMix {
		t.Fatalf("round trip of %s = %v, %v", DefaultMix, back, err)
	}
	for _, bad := range []string{"quote", "buy=1", "quote=-1", "quote=x", "quote=0"} {
		if _, err := ParseMix(bad); err == nil {
			t.Errorf("ParseMix(%q) succeeded", bad)
		}
	}
	if _, err := NewWorkload(1, nil, DefaultMix); err == nil {
		t.Error("NewWorkload with no SKUs succeeded")
	}
}

func TestPercentiles(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- { // unsorted on purpose
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	got := percentiles(ds)
	want := Percentiles{P50: 50, P90: 90, P99: 99, Max: 100, Mean: 50.5}
	if got != want {
		t.Fatalf("percentiles(1..100ms) = %+v, want %+v", got, want)
	}
	if got := percentiles([]time.Duration{3 * time.Millisecond}); got != (Percentiles{3, 3, 3, 3, 3}) {
		t.Fatalf("percentiles of one sample = %+v", got)
	}
	if got := percentiles(nil); got != (Percentiles{}) {
		t.Fatalf("percentiles of nothing = %+v", got)
	}
}

func TestSummarize(t *testing.T) {
	ms := time.Millisecond
	results := []result{
		{op: OpOrder, status: 201, latency: ms, service: ms},
		{op: OpOrder, status: 409, latency: 2 * ms, service: ms},
		{op: OpQuote, status: 200, latency: 3 * ms, service: ms},
		{op: OpQuote, status: 503, latency: 4 * ms, service: ms, failure: "POST /quote: 503"},
		{op: OpGetOrder, status: 0, latency: 5 * ms, service: ms, failure: "GET /orders/x: reset"},
	}
	s := summarize(Config{BaseURL: "http://x", Concurrency: 2, Mix: DefaultMix}, results, 2*time.Second)
	if s.Requests != 5 || s.ClientErrors != 1 || s.ServerErrors != 1 || s.TransportErrors != 1 || s.OrdersCreated != 1 {
		t.Fatalf("counts: %+v", s)
	}
	if want := map[string]int{"200": 1, "201": 1, "409": 1, "503": 1, "transport": 1}; !reflect.DeepEqual(s.Statuses, want) {
		t.Errorf("statuses %v, want %v", s.Statuses, want)
	}
	if s.Throughput != 2.5 || !s.Failed() || len(s.SampleFailures) != 2 {
		t.Errorf("throughput %v failed %v samples %v", s.Throughput, s.Failed(), s.SampleFailures)
	}
	if o := s.Ops["order"]; o.Requests != 2 || o.Latency.Max != 2 {
		t.Errorf("order op summary %+v", o)
	}
	var text strings.Builder
	if err := s.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"5 in 2.00s = 2.5 req/s", "503: 1", "transport: 1", "1 server (5xx), 1 transport", "failure     GET /orders/x: reset"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text summary lacks %q:\n%s", want, text.String())
		}
	}
}

func TestConfigCheck(t *testing.T) {
	ok := Config{BaseURL: "http://127.0.0.1:1", Requests: 1, Concurrency: 1}
	tests := []struct {
		modify func(*Config)
		want   string
	}{
		{func(c *Config) { c.BaseURL = "" }, "no base URL"},
		{func(c *Config) { c.BaseURL = "127.0.0.1:8080" }, "want http://host:port"},
		{func(c *Config) { c.Duration = time.Second }, "not both"},
		{func(c *Config) { c.Requests = 0 }, "set a request count"},
		{func(c *Config) { c.Concurrency = 0 }, "concurrency 0"},
		{func(c *Config) { c.Rate = -1 }, "rate -1"},
		{func(c *Config) { c.Warmup = -1 }, "must not be negative"},
	}
	for _, tc := range tests {
		c := ok
		tc.modify(&c)
		_, err := Run(context.Background(), c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Run error = %v, want one containing %q", err, tc.want)
		}
	}
	c := ok
	if _, err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "is it running?") {
		t.Errorf("Run against nothing: %v", err)
	}
}

// fakeShop answers like the shop, counts requests, and hands out order IDs.
type fakeShop struct {
	requests atomic.Int64
	orders   atomic.Int64
	mu       sync.Mutex
	paths    map[string]int
	delay    time.Duration
	spin     time.Duration // CPU time burnt per request, measured by the thread's own clock
}

func (f *fakeShop) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	f.mu.Lock()
	key := r.Method + " " + r.URL.Path
	if strings.HasPrefix(r.URL.Path, "/orders/") {
		key = r.Method + " /orders/{id}" + map[bool]string{true: "/cancel", false: ""}[strings.HasSuffix(r.URL.Path, "/cancel")]
	}
	f.paths[key]++
	f.mu.Unlock()
	time.Sleep(f.delay)
	burnCPU(f.spin)
	switch {
	case r.URL.Path == "/products":
		json.NewEncoder(w).Encode([]map[string]string{{"sku": "A"}, {"sku": "B"}})
	case r.URL.Path == "/orders" && r.Method == http.MethodPost:
		var c Cart
		if err := json.NewDecoder(r.Body).Decode(&c); err != nil || c.Customer == "" || len(c.Items) == 0 {
			http.Error(w, "bad cart", http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"id":"ord-%d"}`, f.orders.Add(1))
	default:
		w.Write([]byte("{}"))
	}
}

func TestRunCountsMeasuredRequestsOnly(t *testing.T) {
	shop := &fakeShop{paths: map[string]int{}}
	srv := httptest.NewServer(shop)
	defer srv.Close()
	s, err := Run(context.Background(), Config{BaseURL: srv.URL, Seed: 3, Requests: 300, Warmup: 50, Concurrency: 4})
	if err != nil {
		t.Fatal(err)
	}
	if s.Requests != 300 {
		t.Fatalf("summary counts %d requests, want 300", s.Requests)
	}
	// 1 catalogue fetch + 50 warm-up + 300 measured reached the server.
	if got := shop.requests.Load(); got != 351 {
		t.Fatalf("server saw %d requests, want 351", got)
	}
	if s.Failed() || s.ClientErrors != 0 || s.Statuses["201"] != s.OrdersCreated || s.OrdersCreated == 0 {
		t.Fatalf("unexpected outcome: %+v", s)
	}
	// Gets and cancels resolve to orders the run created.
	if shop.paths["GET /orders/{id}"] == 0 || shop.paths["POST /orders/{id}/cancel"] == 0 {
		t.Fatalf("no gets or cancels reached the server: %v", shop.paths)
	}
	if s.Latency != s.Service {
		t.Errorf("closed loop: latency %+v differs from service time %+v", s.Latency, s.Service)
	}
}

// In an open loop the run keeps to the schedule, and a server slower than
// the schedule is charged for the wait: latency exceeds service time.
func TestRunOpenLoop(t *testing.T) {
	shop := &fakeShop{paths: map[string]int{}}
	srv := httptest.NewServer(shop)
	defer srv.Close()
	s, err := Run(context.Background(), Config{BaseURL: srv.URL, Requests: 50, Concurrency: 4, Rate: 200})
	if err != nil {
		t.Fatal(err)
	}
	// The last request is due 49/200 s = 245ms after the start.
	if s.ElapsedSeconds < 0.245 || s.Requests != 50 {
		t.Fatalf("50 requests at 200/s finished in %.3fs", s.ElapsedSeconds)
	}

	slow := &fakeShop{paths: map[string]int{}, delay: 20 * time.Millisecond}
	srv2 := httptest.NewServer(slow)
	defer srv2.Close()
	// One worker, 20ms per request, due every 5ms: requests queue.
	s, err = Run(context.Background(), Config{BaseURL: srv2.URL, Requests: 20, Concurrency: 1, Rate: 200})
	if err != nil {
		t.Fatal(err)
	}
	// The last request is due at 95ms but cannot finish before 20 x 20ms =
	// 400ms, however loaded the machine: its latency is at least 305ms.
	if s.Service.P50 < 20 || s.Latency.Max < 300 || s.Latency.Mean <= s.Service.Mean {
		t.Fatalf("latency %+v does not include queueing beyond service %+v", s.Latency, s.Service)
	}
}

func TestRunByDuration(t *testing.T) {
	shop := &fakeShop{paths: map[string]int{}}
	srv := httptest.NewServer(shop)
	defer srv.Close()
	start := time.Now()
	s, err := Run(context.Background(), Config{BaseURL: srv.URL, Duration: 200 * time.Millisecond, Concurrency: 2, Rate: 100})
	if err != nil {
		t.Fatal(err)
	}
	// At 100/s for 200ms: requests due at 0, 10, ..., 190ms; never more,
	// fewer only if the machine is too loaded to dispatch on time.
	if s.Requests < 5 || s.Requests > 20 || time.Since(start) > 5*time.Second {
		t.Fatalf("%d requests in a 200ms run at 100/s", s.Requests)
	}
}

// burnCPU keeps the calling thread busy until it has used d of CPU time.
func burnCPU(d time.Duration) {
	if d <= 0 {
		return
	}
	// CLOCK_THREAD_CPUTIME_ID counts the thread's CPU time to the
	// nanosecond; getrusage's thread times move in whole scheduler ticks.
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	now := func() time.Duration {
		if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
			panic("clock_gettime(CLOCK_THREAD_CPUTIME_ID): " + e.Error())
		}
		return time.Duration(ts.Nano())
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for end := now() + d; now() < end; {
	}
}
