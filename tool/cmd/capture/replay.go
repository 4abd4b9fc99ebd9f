package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probectl"
	"github.com/rules-capture/rules_capture/tool/internal/frontend"
)

func init() {
	register("replay", command{"replay event logs against the current code of the observed set", func(args []string) int {
		return runReplay(args, os.Stdout)
	}})
}

func runReplay(args []string, stdout io.Writer) int {
	fs := flag.NewFlagSet("capture replay", flag.ContinueOnError)
	observe := fs.String("observe", "", "comma-separated import paths of the observed packages (required)")
	check := fs.String("check", probectl.CheckStrict, "check level: strict, returns or crash")
	root := fs.String("root", "", "rules_capture's source tree (default: $"+frontend.EnvRoot+" or where capture was built from)")
	reports := fs.String("reports", "", "directory for one JSON report per log (default: none)")
	harness := fs.String("harness", "", "also keep the replay harness binary at this path")
	verbose := fs.Bool("v", false, "print the go commands and the notes of passing replays")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: capture replay -observe PKG[,PKG] [-check strict|returns|crash] LOG|DIR...\n\nA folder stands for every *.arrow log below it.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	obs := frontend.SplitList(*observe)
	if len(obs) == 0 || fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if !probectl.ValidCheck(*check) {
		fmt.Fprintf(os.Stderr, "capture replay: -check %q: want strict, returns or crash\n", *check)
		return 2
	}
	tally := &logTally{}
	var logs []string
	for _, a := range expandLogs(fs.Args()) {
		if a.err != nil {
			fmt.Fprintf(stdout, "ERROR    %s: %v\n", a.path, errText(a.path, a.err))
			tally.fail(a.path, "not read")
			continue
		}
		abs, err := filepath.Abs(a.path)
		if err != nil {
			fmt.Fprintf(stdout, "ERROR    %s: %v\n", a.path, err)
			tally.fail(a.path, "not read")
			continue
		}
		if why, err := checkReplayLog(abs, obs); err != nil {
			fmt.Fprintf(stdout, "ERROR    %s: %v\n", abs, err)
			tally.fail(abs, why)
			continue
		}
		logs = append(logs, abs)
	}
	if len(logs) == 0 {
		return max(tally.finish(stdout, "capture replay"), 1)
	}
	rootDir, err := frontend.FindRoot(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture replay:", err)
		return 2
	}
	s, err := frontend.NewSession(".", obs, rootDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture replay:", err)
		return 1
	}
	defer s.Close()
	s.Verbose = *verbose
	bin, bad, err := s.BuildHarnessFor(logs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture replay:", err)
		return 1
	}
	// A log with a site no capture writes is not replayed, and nothing of
	// it is in the harness; the other logs replay.
	logs = slices.DeleteFunc(logs, func(l string) bool {
		if bad[l] != nil {
			fmt.Fprintf(stdout, "ERROR    %v\n", bad[l])
			tally.fail(l, "refused")
		}
		return bad[l] != nil
	})
	if bin == "" {
		return tally.finish(stdout, "capture replay")
	}
	if *harness != "" {
		if b, err := os.ReadFile(bin); err == nil {
			_ = os.WriteFile(*harness, b, 0o755)
		}
	}
	for i, log := range logs {
		report := filepath.Join(s.Work, fmt.Sprintf("report-%d.json", i))
		if *reports != "" {
			if err := os.MkdirAll(*reports, 0o755); err != nil {
				fmt.Fprintln(os.Stderr, "capture replay:", err)
				return 1
			}
			report = filepath.Join(*reports, filepath.Base(log)+".json")
		}
		o, err := probectl.Run(context.Background(), probectl.Child{
			Harness: bin,
			Log:     log,
			Check:   *check,
			Report:  report,
			Stall:   os.Getenv(probectl.EnvReplayStall), // a replay setting, not the program's environment
		})
		if err != nil {
			fmt.Fprintf(stdout, "ERROR    %s: %v\n", log, err)
			tally.fail(log, "error")
			continue
		}
		r := o.Report
		switch r.Verdict {
		case probectl.Pass:
			tally.ok()
			fmt.Fprintf(stdout, "PASS     %s (%d events, check %s)\n", log, r.Events, r.Check)
			if r.Ended != "" && !*verbose {
				// Not only with -v: a pass of a cut log judged only part
				// of what the capture did.
				fmt.Fprintf(stdout, "  note: %s\n", r.Ended)
			}
			if *verbose {
				for _, n := range r.Notes {
					fmt.Fprintf(stdout, "  note: %s\n", n)
				}
			}
		default:
			tally.fail(log, "diverged")
			fmt.Fprintf(stdout, "DIVERGED %s (check %s)\n", log, r.Check)
			if r.Divergence != nil {
				fmt.Fprint(stdout, indent(r.Divergence.String()))
			}
			for _, n := range r.Notes {
				fmt.Fprintf(stdout, "  note: %s\n", n)
			}
		}
	}
	return tally.finish(stdout, "capture replay")
}

// checkReplayLog opens log before the harness is built from the logs: one
// that cannot be read is reported on its own instead of failing the build
// for all, and one captured with another observed set than -observe names
// gets one clear line instead of a divergence whose reason misleads (the
// boundary itself differs). It returns a short reason for the summary.
func checkReplayLog(log string, observe []string) (string, error) {
	r, err := eventlog.Open(log)
	if err != nil {
		return "unreadable", err
	}
	defer r.Close()
	have := r.Meta().ObservedPackages
	if len(have) == 0 {
		return "", nil // a log that does not record its observed set
	}
	if !sameSet(have, observe) {
		h, o := sortedCopy(have), sortedCopy(observe)
		return "observed set differs", fmt.Errorf("log %s was captured with observed set [%s], -observe says [%s]: replay with -observe %s, or re-capture",
			filepath.Base(log), strings.Join(h, " "), strings.Join(o, " "), strings.Join(h, ","))
	}
	return "", nil
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return slices.Compact(c)
}

func sameSet(a, b []string) bool {
	return slices.Equal(sortedCopy(a), sortedCopy(b))
}

// indent indents every line of s by two spaces, ending the last with a
// newline. In linear time: a divergence's values can be megabytes on one
// line (chi's throttle tests' requests, 335 KB), which building the line a
// rune at a time took the replay past the study's time limit for.
func indent(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/40 + 3)
	for line := range strings.Lines(s) {
		b.WriteString("  ")
		b.WriteString(line)
	}
	if s != "" && !strings.HasSuffix(s, "\n") {
		b.WriteString("\n")
	}
	return b.String()
}
