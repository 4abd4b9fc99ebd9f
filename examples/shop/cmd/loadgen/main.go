// Command loadgen drives the example shop with a reproducible mixed workload
// and prints throughput, latency percentiles and status counts. See
// examples/shop/README.md.
//
// Exit status: 0 when the shop answered every request (4xx included: they
// are the workload's expected business errors), 1 when any request got a
// 5xx or no answer, 2 on bad flags or when the run could not start.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/rules-capture/rules_capture/examples/shop/loadgen"
)

func main() {
	cfg := loadgen.Config{}
	flag.StringVar(&cfg.BaseURL, "url", "http://127.0.0.1:8080", "the shop's base URL")
	flag.Uint64Var(&cfg.Seed, "seed", 1, "workload seed: the same seed plans the same requests")
	flag.IntVar(&cfg.Requests, "n", 0, "measured requests (default 5000 unless -duration is set)")
	flag.DurationVar(&cfg.Duration, "duration", 0, "measure for this long instead of a request count")
	flag.IntVar(&cfg.Warmup, "warmup", 200, "unmeasured warm-up requests before the measured ones")
	flag.IntVar(&cfg.Concurrency, "concurrency", 8, "concurrent workers (connections)")
	flag.Float64Var(&cfg.Rate, "rate", 0, "target requests per second, open loop; 0 runs a closed loop as fast as the shop answers")
	flag.DurationVar(&cfg.Timeout, "timeout", 0, "per-request timeout (default 10s)")
	mix := flag.String("mix", loadgen.DefaultMix.String(), "operation weights")
	asJSON := flag.Bool("json", false, "print the summary as JSON instead of text")
	compare := flag.String("compare", "", "NAME=URL,NAME=URL: run the workload against both servers in alternating rounds (A B, B A, ...) and report medians and the ratios B/A; -url is ignored")
	rounds := flag.Int("rounds", 5, "rounds of a -compare run")
	pids := flag.String("pids", "", "PID,PID: the -compare servers' process IDs (Linux): also report each server's CPU time per request in every round and the paired CPU ratio B/A")
	gctrace := flag.String("gctrace", "", "FILE,FILE: the -compare servers' standard error, each server running with GODEBUG=gctrace=1 (needs -pids): also report each server's GC CPU time per request and the paired CPU ratio without it")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "loadgen: unexpected arguments %q; all settings are flags (see -help)\n", flag.Args())
		os.Exit(2)
	}
	if cfg.Requests == 0 && cfg.Duration == 0 {
		cfg.Requests = 5000
	}
	var err error
	if cfg.Mix, err = loadgen.ParseMix(*mix); err != nil {
		fmt.Fprintf(os.Stderr, "loadgen: -mix: %v\n", err)
		os.Exit(2)
	}

	// Ctrl-C stops the run early; the summary of what completed still prints.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *compare != "" {
		os.Exit(runCompare(ctx, cfg, *compare, *pids, *gctrace, *rounds, *asJSON))
	}
	s, err := loadgen.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(s)
	} else {
		err = s.WriteText(os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(2)
	}
	if s.Failed() {
		fmt.Fprintf(os.Stderr, "loadgen: the shop failed %d requests (%d server errors, %d without answer)\n",
			s.ServerErrors+s.TransportErrors, s.ServerErrors, s.TransportErrors)
		os.Exit(1)
	}
}

func runCompare(ctx context.Context, cfg loadgen.Config, targets, pids, gctrace string, rounds int, asJSON bool) int {
	ts, err := loadgen.ParseTargets(targets)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen: -compare:", err)
		return 2
	}
	if pids != "" {
		a, b, ok := strings.Cut(pids, ",")
		pa, errA := strconv.Atoi(a)
		pb, errB := strconv.Atoi(b)
		if !ok || errA != nil || errB != nil || pa <= 0 || pb <= 0 {
			fmt.Fprintf(os.Stderr, "loadgen: -pids %q: want two process IDs PID,PID, in the order of -compare's targets\n", pids)
			return 2
		}
		ts[0].PID, ts[1].PID = pa, pb
	}
	if gctrace != "" {
		a, b, ok := strings.Cut(gctrace, ",")
		if !ok || a == "" || b == "" || pids == "" {
			fmt.Fprintf(os.Stderr, "loadgen: -gctrace %q: want two files FILE,FILE, in the order of -compare's targets, and -pids\n", gctrace)
			return 2
		}
		ts[0].GCTrace, ts[1].GCTrace = a, b
	}
	c, err := loadgen.Compare(ctx, cfg, ts, rounds)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(c)
	} else {
		err = c.WriteText(os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		return 2
	}
	return 0
}
