package loadgen

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Percentiles of a latency distribution, in milliseconds. Percentiles use
// the nearest-rank method on all samples (no histogram approximation).
type Percentiles struct {
	P50  float64 `json:"p50_ms"`
	P90  float64 `json:"p90_ms"`
	P99  float64 `json:"p99_ms"`
	Max  float64 `json:"max_ms"`
	Mean float64 `json:"mean_ms"`
}

// OpSummary is the outcome of one kind of request.
type OpSummary struct {
	Requests int            `json:"requests"`
	Statuses map[string]int `json:"statuses"`
	Latency  Percentiles    `json:"latency"`
}

// Summary is the outcome of the measured phase of a run.
type Summary struct {
	URL         string  `json:"url"`
	Seed        uint64  `json:"seed"`
	Concurrency int     `json:"concurrency"`
	Rate        float64 `json:"rate"` // 0: closed loop
	Warmup      int     `json:"warmup_requests"`
	Mix         string  `json:"mix"`

	Requests int `json:"requests"`
	// Statuses counts responses by HTTP status; "transport" counts requests
	// that got no response (connection refused or reset, timeout).
	Statuses map[string]int `json:"statuses"`
	// ClientErrors are 4xx answers. Most are expected: the mix includes
	// unknown regions, expired and bogus coupons, carts that exceed the
	// stock of limited editions, and cancels that race.
	ClientErrors    int `json:"client_errors"`
	ServerErrors    int `json:"server_errors"`
	TransportErrors int `json:"transport_errors"`
	OrdersCreated   int `json:"orders_created"`

	ElapsedSeconds float64 `json:"elapsed_seconds"`
	Throughput     float64 `json:"throughput_rps"`
	// Latency counts from when a request was due (open loop) or sent
	// (closed loop) until its response body was read.
	Latency Percentiles `json:"latency"`
	// Service counts from when a request was sent; it differs from Latency
	// only in an open-loop run, by the time requests waited for a worker.
	Service Percentiles `json:"service"`

	Ops            map[string]OpSummary `json:"ops"`
	SampleFailures []string             `json:"sample_failures,omitempty"`
	Interrupted    bool                 `json:"interrupted,omitempty"`
}

// Failed reports whether the shop failed any request (5xx or no answer).
// 4xx answers are the workload's expected business errors, not failures.
func (s *Summary) Failed() bool { return s.ServerErrors > 0 || s.TransportErrors > 0 }

func summarize(cfg Config, results []result, elapsed time.Duration) *Summary {
	s := &Summary{
		URL: cfg.BaseURL, Seed: cfg.Seed, Concurrency: cfg.Concurrency, Rate: cfg.Rate,
		Warmup: cfg.Warmup, Mix: cfg.Mix.String(),
		Requests: len(results), Statuses: map[string]int{}, Ops: map[string]OpSummary{},
		ElapsedSeconds: elapsed.Seconds(),
	}
	if elapsed > 0 {
		s.Throughput = float64(len(results)) / elapsed.Seconds()
	}
	latency := make([]time.Duration, 0, len(results))
	service := make([]time.Duration, 0, len(results))
	perOp := make([][]time.Duration, numOps)
	for _, r := range results {
		key := statusKey(r.status)
		s.Statuses[key]++
		switch {
		case r.status == 0:
			s.TransportErrors++
		case r.status >= 500:
			s.ServerErrors++
		case r.status >= 400:
			s.ClientErrors++
		case r.op == OpOrder && r.status == 201:
			s.OrdersCreated++
		}
		if r.failure != "" && len(s.SampleFailures) < 5 {
			s.SampleFailures = append(s.SampleFailures, r.failure)
		}
		latency = append(latency, r.latency)
		service = append(service, r.service)
		perOp[r.op] = append(perOp[r.op], r.latency)
		o := s.Ops[r.op.String()]
		if o.Statuses == nil {
			o.Statuses = map[string]int{}
		}
		o.Requests++
		o.Statuses[key]++
		s.Ops[r.op.String()] = o
	}
	s.Latency = percentiles(latency)
	s.Service = percentiles(service)
	for op, ds := range perOp {
		if len(ds) == 0 {
			continue
		}
		o := s.Ops[Op(op).String()]
		o.Latency = percentiles(ds)
		s.Ops[Op(op).String()] = o
	}
	return s
}

func statusKey(status int) string {
	if status == 0 {
		return "transport"
	}
	return strconv.Itoa(status)
}

// percentiles sorts ds in place.
func percentiles(ds []time.Duration) Percentiles {
	if len(ds) == 0 {
		return Percentiles{}
	}
	slices.Sort(ds)
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return Percentiles{
		P50:  ms(rank(ds, 0.50)),
		P90:  ms(rank(ds, 0.90)),
		P99:  ms(rank(ds, 0.99)),
		Max:  ms(ds[len(ds)-1]),
		Mean: ms(sum / time.Duration(len(ds))),
	}
}

// rank is the nearest-rank percentile of sorted samples: the smallest
// sample with at least p of all samples at or below it.
func rank(sorted []time.Duration, p float64) time.Duration {
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[max(i, 0)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// WriteText prints the summary for people.
func (s *Summary) WriteText(w io.Writer) error {
	var b strings.Builder
	loop := "closed loop"
	if s.Rate > 0 {
		loop = fmt.Sprintf("open loop at %g req/s", s.Rate)
	}
	fmt.Fprintf(&b, "loadgen  %s  seed %d, %d workers, %s, %d warm-up requests excluded\n",
		s.URL, s.Seed, s.Concurrency, loop, s.Warmup)
	if s.Interrupted {
		b.WriteString("INTERRUPTED: the run was stopped early; numbers cover what completed\n")
	}
	fmt.Fprintf(&b, "requests    %d in %.2fs = %.1f req/s (%d orders created)\n",
		s.Requests, s.ElapsedSeconds, s.Throughput, s.OrdersCreated)
	fmt.Fprintf(&b, "statuses    %s\n", formatCounts(s.Statuses))
	fmt.Fprintf(&b, "errors      %d client (4xx, expected from the mix), %d server (5xx), %d transport\n",
		s.ClientErrors, s.ServerErrors, s.TransportErrors)
	fmt.Fprintf(&b, "latency ms  %s\n", formatPercentiles(s.Latency))
	if s.Rate > 0 {
		fmt.Fprintf(&b, "service ms  %s\n", formatPercentiles(s.Service))
	}
	fmt.Fprintf(&b, "%-10s %9s %9s %9s  %s\n", "op", "requests", "p50 ms", "p99 ms", "statuses")
	for _, name := range opNames {
		o, ok := s.Ops[name]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "%-10s %9d %9.3f %9.3f  %s\n", name, o.Requests, o.Latency.P50, o.Latency.P99, formatCounts(o.Statuses))
	}
	for _, f := range s.SampleFailures {
		fmt.Fprintf(&b, "failure     %s\n", f)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func formatPercentiles(p Percentiles) string {
	return fmt.Sprintf("p50 %.3f  p90 %.3f  p99 %.3f  max %.3f  mean %.3f", p.P50, p.P90, p.P99, p.Max, p.Mean)
}

func formatCounts(m map[string]int) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %d", k, m[k])
	}
	return strings.Join(parts, "  ")
}
