package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/rules-capture/rules_capture/runtime/probe"
	"github.com/rules-capture/rules_capture/tool/internal/frontend"
)

func init() {
	register("replay", command{"replay event logs against the current code of the observed set", runReplay})
}

func runReplay(args []string) int {
	fs := flag.NewFlagSet("capture replay", flag.ContinueOnError)
	observe := fs.String("observe", "", "comma-separated import paths of the observed packages (required)")
	check := fs.String("check", probe.CheckStrict, "check level: strict, returns or crash")
	root := fs.String("root", "", "rules_capture's source tree (default: $"+frontend.EnvRoot+" or where capture was built from)")
	reports := fs.String("reports", "", "directory for one JSON report per log (default: none)")
	harness := fs.String("harness", "", "also keep the replay harness binary at this path")
	verbose := fs.Bool("v", false, "print the go commands and the notes of passing replays")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: capture replay -observe PKG[,PKG] [-check strict|returns|crash] LOG...")
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
	switch *check {
	case probe.CheckStrict, probe.CheckReturns, probe.CheckCrash:
	default:
		fmt.Fprintf(os.Stderr, "capture replay: -check %q: want strict, returns or crash\n", *check)
		return 2
	}
	logs := make([]string, fs.NArg())
	for i, l := range fs.Args() {
		abs, err := filepath.Abs(l)
		if err != nil {
			fmt.Fprintln(os.Stderr, "capture replay:", err)
			return 2
		}
		if _, err := os.Stat(abs); err != nil {
			fmt.Fprintln(os.Stderr, "capture replay:", err)
			return 2
		}
		logs[i] = abs
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
	bin, err := s.BuildHarness(logs...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture replay:", err)
		return 1
	}
	if *harness != "" {
		if b, err := os.ReadFile(bin); err == nil {
			_ = os.WriteFile(*harness, b, 0o755)
		}
	}
	failed := 0
	for i, log := range logs {
		report := filepath.Join(s.Work, fmt.Sprintf("report-%d.json", i))
		if *reports != "" {
			if err := os.MkdirAll(*reports, 0o755); err != nil {
				fmt.Fprintln(os.Stderr, "capture replay:", err)
				return 1
			}
			report = filepath.Join(*reports, filepath.Base(log)+".json")
		}
		r, err := replayOne(bin, log, *check, report)
		if err != nil {
			fmt.Printf("ERROR    %s: %v\n", log, err)
			failed++
			continue
		}
		switch r.Verdict {
		case "pass":
			fmt.Printf("PASS     %s (%d events, check %s)\n", log, r.Events, r.Check)
			if *verbose {
				for _, n := range r.Notes {
					fmt.Printf("  note: %s\n", n)
				}
			}
		default:
			failed++
			fmt.Printf("DIVERGED %s (check %s)\n", log, r.Check)
			if r.Divergence != nil {
				fmt.Print(indent(r.Divergence.String()))
			}
			for _, n := range r.Notes {
				fmt.Printf("  note: %s\n", n)
			}
		}
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// replayOne replays one log in a fresh process of the harness, with an
// environment that holds nothing but the replay's own settings.
func replayOne(bin, log, check, report string) (*probe.Report, error) {
	_ = os.Remove(report)
	cmd := exec.Command(bin)
	cmd.Env = []string{
		probe.EnvReplayLog + "=" + log,
		probe.EnvReplayCheck + "=" + check,
		probe.EnvReplayReport + "=" + report,
	}
	if v := os.Getenv(probe.EnvReplayStall); v != "" {
		cmd.Env = append(cmd.Env, probe.EnvReplayStall+"="+v) // a replay setting, not the program's environment
	}
	cmd.Dir = filepath.Dir(log)
	out, runErr := cmd.CombinedOutput()
	b, err := os.ReadFile(report)
	if err != nil {
		r, ok := probe.CrashReport(log, check, runErr, out)
		if runErr == nil || !ok {
			return nil, fmt.Errorf("the harness wrote no report (%v):\n%s", runErr, out)
		}
		if b, err := json.MarshalIndent(r, "", "  "); err == nil {
			_ = os.WriteFile(report, b, 0o644) // for the readers of -reports
		}
		return r, nil
	}
	var r probe.Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("report %s: %w", report, err)
	}
	if r.Verdict == "error" {
		return nil, fmt.Errorf("%v\n%s", r.Notes, out)
	}
	if r.Verdict == "pass" && runErr != nil {
		// A harness built with -race exits 66 after reporting a data race.
		return nil, fmt.Errorf("the replay passed but the harness failed (%v):\n%s", runErr, out)
	}
	if r.Verdict == "diverged" && r.Divergence == nil {
		return nil, fmt.Errorf("divergence without details:\n%s", out)
	}
	return &r, nil
}

func indent(s string) string {
	out := ""
	line := ""
	for _, c := range s {
		line += string(c)
		if c == '\n' {
			out += "  " + line
			line = ""
		}
	}
	if line != "" {
		out += "  " + line + "\n"
	}
	return out
}
