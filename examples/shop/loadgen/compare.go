package loadgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// Target is one server of a comparison.
type Target struct {
	Name string `json:"name"`
	URL  string `json:"url"`
	// PID, if not 0, is the server's process ID (Linux): each run then
	// also measures the server's CPU time per request.
	PID int `json:"pid,omitempty"`
	// GCTrace, if not empty, is the file the server's standard error goes
	// to, the server running with GODEBUG=gctrace=1: each run then also
	// measures the CPU time of the server's garbage collections per
	// request (needs PID: what the comparison excludes is part of it).
	GCTrace string `json:"gctrace,omitempty"`
}

// Measure is what a comparison compares: throughput and the latency
// percentiles of one run (or their medians over rounds).
type Measure struct {
	Throughput float64 `json:"throughput_rps"`
	P50        float64 `json:"p50_ms"`
	P99        float64 `json:"p99_ms"`
}

func measureOf(s *Summary) Measure {
	return Measure{Throughput: s.Throughput, P50: s.Latency.P50, P99: s.Latency.P99}
}

// Comparison is the outcome of Compare: every run, the medians per target
// and the ratios of the second target's medians to the first's.
type Comparison struct {
	Targets [2]Target `json:"targets"`
	Seed    uint64    `json:"seed"`
	Rate    float64   `json:"rate"` // 0: closed loop
	// Runs[i][k] is round i's run against Targets[k].
	Runs   [][2]*Summary `json:"runs"`
	Median [2]Measure    `json:"median"`
	// Ratio is Median[1] / Median[0], field by field: a throughput ratio
	// below 1 and latency ratios above 1 are the second target's cost.
	Ratio Measure `json:"ratio"`
	// Paired is the median over rounds of each round's own ratio (second
	// target / first, field by field). The two runs of a round are
	// neighbours in time, so a drift of the machine's speed between rounds
	// cancels in each round's ratio; on a shared machine it is the steadier
	// of the two estimates.
	Paired Measure `json:"paired_ratio"`
	// ThroughputInterval bounds Paired.Throughput with the distribution-free
	// confidence interval of a median (order statistics of the rounds'
	// ratios, sign test): it holds the true median ratio with probability at
	// least Confidence. Zero with fewer than 6 rounds, which cannot give 90%.
	ThroughputInterval [2]float64 `json:"throughput_interval,omitempty"`
	Confidence         float64    `json:"confidence,omitempty"`

	// CPU[i][k] is the CPU time (user + system, microseconds) that
	// Targets[k]'s process used per request it answered in round i: the
	// catalogue fetch, the warm-up and the measured requests. Only when
	// both targets have a PID.
	CPU [][2]float64 `json:"cpu_us_per_request,omitempty"`
	// MedianCPU[k] is the median of Targets[k]'s CPU per request over rounds.
	MedianCPU [2]float64 `json:"median_cpu_us_per_request,omitempty"`
	// PairedCPU is the median over rounds of each round's CPU ratio (second
	// target / first), with its distribution-free interval like
	// ThroughputInterval's. At saturation a server's throughput falls with
	// its CPU per request, but this ratio does not move with the disk's or
	// the machine's speed, which single rounds' throughput does.
	PairedCPU     float64    `json:"paired_cpu_ratio,omitempty"`
	CPUInterval   [2]float64 `json:"cpu_interval,omitempty"`
	CPUConfidence float64    `json:"cpu_confidence,omitempty"`

	// GC[i][k] is the part of CPU[i][k] that Targets[k]'s garbage
	// collections used, from the GC trace lines of the collections that
	// ended during the run (parseGCTraceLine says what a line's CPU is).
	// Only when both targets have a PID and a GCTrace. A server whose own
	// heap is small collects often; one that holds more memory (the
	// capture's buffers) collects less, so the GC's CPU is reported apart
	// and the ratio below leaves it out.
	GC [][2]GCRun `json:"gc,omitempty"`
	// MedianGC[k] is the median over rounds of Targets[k]'s GC CPU per
	// request and of its collections per 1,000 requests.
	MedianGC [2]GCRun `json:"median_gc,omitzero"`
	// AllRoundsGC[k] is Targets[k]'s GC over all rounds together: GC CPU
	// and collections over requests answered. Where a server collects less
	// than once a run, most rounds see no collection and the median is 0;
	// this is the figure to compare then.
	AllRoundsGC [2]GCRun `json:"all_rounds_gc,omitzero"`
	// PairedCPUExGC is the median over rounds of each round's ratio of CPU
	// per request less the GC's (second target / first), with its
	// distribution-free interval.
	PairedCPUExGC     float64    `json:"paired_cpu_ex_gc_ratio,omitempty"`
	CPUExGCInterval   [2]float64 `json:"cpu_ex_gc_interval,omitempty"`
	CPUExGCConfidence float64    `json:"cpu_ex_gc_confidence,omitempty"`
	// GCUnreadable counts trace lines that looked like a collection's but
	// did not parse (their CPU is missing from GC); 0 in a sound run.
	GCUnreadable int `json:"gc_unreadable,omitempty"`
}

// GCRun is a server's garbage collection in one run: CPU time per request
// answered (microseconds) and collections per 1,000 requests.
type GCRun struct {
	CPU    float64 `json:"cpu_us_per_request"`
	PerK   float64 `json:"cycles_per_1000_requests"`
	Cycles int     `json:"cycles,omitempty"`
}

// Compare runs the same seeded workload (cfg, with BaseURL ignored) against
// two servers in alternating rounds, A B then B A, so that drift in the
// machine's load (other processes, the servers' growing state) falls on both
// alike. Each run has its own warm-up. It returns an error if a run could not
// start or the shop failed a request: a comparison of failures measures
// nothing.
func Compare(ctx context.Context, cfg Config, targets [2]Target, rounds int) (*Comparison, error) {
	if rounds < 1 {
		return nil, fmt.Errorf("loadgen: compare: %d rounds, want at least 1", rounds)
	}
	for _, t := range targets {
		if t.Name == "" || t.URL == "" {
			return nil, errors.New("loadgen: compare: each target needs a name and a URL (NAME=URL)")
		}
	}
	c := &Comparison{Targets: targets, Seed: cfg.Seed, Rate: cfg.Rate}
	measureCPU := targets[0].PID != 0 && targets[1].PID != 0
	var traces [2]*gcTrace
	if measureCPU && targets[0].GCTrace != "" && targets[1].GCTrace != "" {
		for k, t := range targets {
			traces[k] = &gcTrace{path: t.GCTrace}
		}
	}
	for i := range rounds {
		order := [2]int{0, 1}
		if i%2 == 1 {
			order = [2]int{1, 0}
		}
		var round [2]*Summary
		var cpu [2]float64
		var gc [2]GCRun
		for _, k := range order {
			run := cfg
			run.BaseURL = targets[k].URL
			if traces[k] != nil {
				// Collections that ended between runs belong to no run.
				u, err := traces[k].read()
				if err != nil {
					return nil, fmt.Errorf("%s: %w", targets[k].Name, err)
				}
				c.GCUnreadable += u.Unreadable
			}
			var before time.Duration
			if measureCPU {
				var err error
				if before, err = processCPU(targets[k].PID); err != nil {
					return nil, fmt.Errorf("%s: %w", targets[k].Name, err)
				}
			}
			s, err := Run(ctx, run)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", targets[k].Name, err)
			}
			if measureCPU {
				after, err := processCPU(targets[k].PID)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", targets[k].Name, err)
				}
				answered := 1 + run.Warmup + s.Requests
				cpu[k] = float64((after - before).Microseconds()) / float64(answered)
				if traces[k] != nil {
					u, err := traces[k].read()
					if err != nil {
						return nil, fmt.Errorf("%s: %w", targets[k].Name, err)
					}
					c.GCUnreadable += u.Unreadable
					gc[k] = GCRun{
						CPU:    float64(u.CPU.Microseconds()) / float64(answered),
						PerK:   1000 * float64(u.Cycles) / float64(answered),
						Cycles: u.Cycles,
					}
				}
			}
			if s.Interrupted {
				return nil, fmt.Errorf("loadgen: compare: interrupted in round %d", i+1)
			}
			if s.Failed() {
				return nil, fmt.Errorf("loadgen: compare: %s failed %d requests in round %d: %s", targets[k].Name,
					s.ServerErrors+s.TransportErrors, i+1, strings.Join(s.SampleFailures, "; "))
			}
			round[k] = s
		}
		c.Runs = append(c.Runs, round)
		if measureCPU {
			c.CPU = append(c.CPU, cpu)
		}
		if traces[0] != nil {
			c.GC = append(c.GC, gc)
		}
	}
	for k := range 2 {
		var tp, p50, p99 []float64
		for _, r := range c.Runs {
			m := measureOf(r[k])
			tp, p50, p99 = append(tp, m.Throughput), append(p50, m.P50), append(p99, m.P99)
		}
		c.Median[k] = Measure{Throughput: median(tp), P50: median(p50), P99: median(p99)}
	}
	c.Ratio = Measure{
		Throughput: ratio(c.Median[1].Throughput, c.Median[0].Throughput),
		P50:        ratio(c.Median[1].P50, c.Median[0].P50),
		P99:        ratio(c.Median[1].P99, c.Median[0].P99),
	}
	var tp, p50, p99 []float64
	for _, r := range c.Runs {
		a, b := measureOf(r[0]), measureOf(r[1])
		tp = append(tp, ratio(b.Throughput, a.Throughput))
		p50, p99 = append(p50, ratio(b.P50, a.P50)), append(p99, ratio(b.P99, a.P99))
	}
	c.Paired = Measure{Throughput: median(tp), P50: median(p50), P99: median(p99)}
	if lo, hi, conf, ok := medianInterval(tp, 0.90); ok {
		c.ThroughputInterval, c.Confidence = [2]float64{lo, hi}, conf
	}
	if measureCPU {
		var own []float64
		for _, r := range c.CPU {
			own = append(own, ratio(r[1], r[0]))
		}
		c.PairedCPU = median(own)
		for k := range 2 {
			var xs []float64
			for _, r := range c.CPU {
				xs = append(xs, r[k])
			}
			c.MedianCPU[k] = median(xs)
		}
		if lo, hi, conf, ok := medianInterval(own, 0.90); ok {
			c.CPUInterval, c.CPUConfidence = [2]float64{lo, hi}, conf
		}
	}
	if c.GC != nil {
		c.pairGC()
	}
	return c, nil
}

// pairGC fills the GC medians and the paired ratio of CPU per request less
// the GC's from CPU and GC.
func (c *Comparison) pairGC() {
	var own []float64
	for i, r := range c.CPU {
		own = append(own, ratio(r[1]-c.GC[i][1].CPU, r[0]-c.GC[i][0].CPU))
	}
	c.PairedCPUExGC = median(own)
	if lo, hi, conf, ok := medianInterval(own, 0.90); ok {
		c.CPUExGCInterval, c.CPUExGCConfidence = [2]float64{lo, hi}, conf
	}
	for k := range 2 {
		var cpu, perK []float64
		for _, r := range c.GC {
			cpu, perK = append(cpu, r[k].CPU), append(perK, r[k].PerK)
		}
		c.MedianGC[k] = GCRun{CPU: median(cpu), PerK: median(perK)}
		var sumCPU float64
		var answered, cycles int
		for i, r := range c.GC {
			n := 1 + c.Runs[i][k].Warmup + c.Runs[i][k].Requests
			sumCPU += r[k].CPU * float64(n)
			answered += n
			cycles += r[k].Cycles
		}
		c.AllRoundsGC[k] = GCRun{CPU: sumCPU / float64(answered), PerK: 1000 * float64(cycles) / float64(answered), Cycles: cycles}
	}
}

// medianInterval is the distribution-free confidence interval of the median
// of xs: the k-th smallest and k-th largest value for the largest k whose
// coverage, 1 - 2*P(Binomial(n, 1/2) < k), is at least want. It needs no
// assumption about the distribution of xs, only that the values are
// independent; ok is false if even the full range covers less than want.
func medianInterval(xs []float64, want float64) (lo, hi, coverage float64, ok bool) {
	n := len(xs)
	s := slices.Clone(xs)
	slices.Sort(s)
	// below[k] = P(Binomial(n, 1/2) < k)
	pmf, below := math.Pow(0.5, float64(n)), 0.0
	for k := 1; 2*k <= n+1; k++ {
		below += pmf // adds P(X = k-1)
		pmf *= float64(n-k+1) / float64(k)
		cov := 1 - 2*below
		if cov < want {
			break
		}
		lo, hi, coverage, ok = s[k-1], s[n-k], cov, true
	}
	return lo, hi, coverage, ok
}

// median of xs (the mean of the middle two for an even count).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// WriteText prints every run, the medians and the ratios.
func (c *Comparison) WriteText(w io.Writer) error {
	var b strings.Builder
	loop := "closed loop (as fast as each server answers)"
	if c.Rate > 0 {
		loop = fmt.Sprintf("open loop at %g req/s", c.Rate)
	}
	r0 := c.Runs[0][0]
	fmt.Fprintf(&b, "compare  %s vs %s  seed %d, %d workers, %s, %d requests per run after %d warm-up, %d rounds (A B, B A, ...)\n",
		c.Targets[0].Name, c.Targets[1].Name, c.Seed, r0.Concurrency, loop, r0.Requests, r0.Warmup, len(c.Runs))
	fmt.Fprintf(&b, "%-6s %-16s %12s %10s %10s", "round", "target", "req/s", "p50 ms", "p99 ms")
	if c.CPU != nil {
		fmt.Fprintf(&b, " %14s", "cpu us/req")
	}
	if c.GC != nil {
		fmt.Fprintf(&b, " %12s %10s", "gc us/req", "gc/1k req")
	}
	b.WriteString("\n")
	for i, r := range c.Runs {
		for k, s := range r {
			fmt.Fprintf(&b, "%-6d %-16s %12.1f %10.3f %10.3f", i+1, c.Targets[k].Name, s.Throughput, s.Latency.P50, s.Latency.P99)
			if c.CPU != nil {
				fmt.Fprintf(&b, " %14.1f", c.CPU[i][k])
			}
			if c.GC != nil {
				fmt.Fprintf(&b, " %12.1f %10.2f", c.GC[i][k].CPU, c.GC[i][k].PerK)
			}
			b.WriteString("\n")
		}
	}
	for k, m := range c.Median {
		fmt.Fprintf(&b, "%-6s %-16s %12.1f %10.3f %10.3f", "median", c.Targets[k].Name, m.Throughput, m.P50, m.P99)
		if c.CPU != nil {
			fmt.Fprintf(&b, " %14.1f", c.MedianCPU[k])
		}
		if c.GC != nil {
			fmt.Fprintf(&b, " %12.1f %10.2f", c.MedianGC[k].CPU, c.MedianGC[k].PerK)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%-6s %-16s %12.3f %10.3f %10.3f\n", "ratio", c.Targets[1].Name+"/"+c.Targets[0].Name, c.Ratio.Throughput, c.Ratio.P50, c.Ratio.P99)
	fmt.Fprintf(&b, "%-6s %-16s %12.3f %10.3f %10.3f   (median of the rounds' own ratios)\n", "paired", c.Targets[1].Name+"/"+c.Targets[0].Name, c.Paired.Throughput, c.Paired.P50, c.Paired.P99)
	if c.Confidence > 0 {
		fmt.Fprintf(&b, "paired throughput ratio %.3f, %.1f%% interval [%.3f, %.3f] (order statistics of %d rounds)\n",
			c.Paired.Throughput, 100*c.Confidence, c.ThroughputInterval[0], c.ThroughputInterval[1], len(c.Runs))
	}
	if c.CPU != nil {
		fmt.Fprintf(&b, "paired cpu per request ratio %.3f", c.PairedCPU)
		if c.CPUConfidence > 0 {
			fmt.Fprintf(&b, ", %.1f%% interval [%.3f, %.3f]", 100*c.CPUConfidence, c.CPUInterval[0], c.CPUInterval[1])
		}
		fmt.Fprintf(&b, " (each server's own CPU time per request answered, %d rounds)\n", len(c.Runs))
	}
	if c.GC != nil {
		fmt.Fprintf(&b, "paired cpu per request ratio excluding gc %.3f", c.PairedCPUExGC)
		if c.CPUExGCConfidence > 0 {
			fmt.Fprintf(&b, ", %.1f%% interval [%.3f, %.3f]", 100*c.CPUExGCConfidence, c.CPUExGCInterval[0], c.CPUExGCInterval[1])
		}
		fmt.Fprintf(&b, " (less the CPU of the collections that ended in each run, from the servers' GC traces)\n")
		fmt.Fprintf(&b, "gc over all rounds: %s %.1f us per request, %d collections (%.2f per 1,000 requests); %s %.1f us, %d (%.2f)\n",
			c.Targets[0].Name, c.AllRoundsGC[0].CPU, c.AllRoundsGC[0].Cycles, c.AllRoundsGC[0].PerK,
			c.Targets[1].Name, c.AllRoundsGC[1].CPU, c.AllRoundsGC[1].Cycles, c.AllRoundsGC[1].PerK)
		if c.GCUnreadable > 0 {
			fmt.Fprintf(&b, "warning: %d GC trace lines did not parse; their collections are not counted\n", c.GCUnreadable)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ParseTargets parses "NAME=URL,NAME=URL".
func ParseTargets(s string) ([2]Target, error) {
	var ts [2]Target
	parts := strings.Split(s, ",")
	if len(parts) != 2 {
		return ts, fmt.Errorf("want two targets NAME=URL,NAME=URL, got %q", s)
	}
	for i, p := range parts {
		name, url, ok := strings.Cut(p, "=")
		if !ok || name == "" || url == "" {
			return ts, fmt.Errorf("target %q: want NAME=URL", p)
		}
		ts[i] = Target{Name: name, URL: url}
	}
	return ts, nil
}
