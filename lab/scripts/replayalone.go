//go:build ignore

// replayalone replays each log given, alone, in a fresh child process of a
// replay harness that Bazel built (a go_replay_test's binary, such as
// //examples/shop:replay_tests), exactly as that test replays each of its
// own logs (runtime/probectl.Run: the log named by the child's environment,
// an otherwise empty environment, a JSON report), so that logs that are not
// among the test's runfiles can be judged by the same binary. One line per
// log:
//
//	PASS     LOG  EVENTS events
//	DIVERGED LOG  seq N: REASON | expected ... | actual ...
//	ERROR    LOG  what went wrong
//
//	go run lab/scripts/replayalone.go -harness bazel-bin/examples/shop/replay_tests [-check strict] [-reports DIR] LOG...
//
// Exit status 1 if any log diverged or could not be replayed.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/probectl"
)

func main() {
	harness := flag.String("harness", "", "the replay harness binary (a go_replay_test's executable)")
	check := flag.String("check", probectl.CheckStrict, "check level: strict, returns or crash")
	reports := flag.String("reports", "", "directory for one JSON report per log (default: a temporary directory, removed)")
	flag.Parse()
	if *harness == "" || flag.NArg() == 0 || !probectl.ValidCheck(*check) {
		fmt.Fprintln(os.Stderr, "usage: replayalone -harness BIN [-check strict|returns|crash] [-reports DIR] LOG...")
		os.Exit(2)
	}
	exe, err := filepath.Abs(*harness)
	if err != nil {
		fatal(err)
	}
	// The harness is a symbolic link into Bazel's output tree; the child
	// needs no runfiles, only the binary.
	if p, err := filepath.EvalSymlinks(exe); err == nil {
		exe = p
	}
	dir := *reports
	if dir == "" {
		if dir, err = os.MkdirTemp("", "replayalone"); err != nil {
			fatal(err)
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		fatal(err)
	}
	failed := false
	for _, log := range flag.Args() {
		abs, err := filepath.Abs(log)
		if err != nil {
			fatal(err)
		}
		o, err := probectl.Run(context.Background(), probectl.Child{
			Harness: exe,
			Args:    []string{"-test.run=^$"},
			Log:     abs,
			Check:   *check,
			Report:  filepath.Join(dir, strings.TrimSuffix(filepath.Base(log), ".arrow")+".replay.json"),
		})
		switch {
		case err != nil:
			failed = true
			fmt.Printf("ERROR    %s  %s\n", log, oneLine(err.Error()))
		case o.Report.Verdict == probectl.Pass:
			fmt.Printf("PASS     %s  %d events\n", log, o.Report.Events)
		default:
			failed = true
			d := o.Report.Divergence
			fmt.Printf("DIVERGED %s  seq %d: %s | expected %s | actual %s | at %s\n", log, d.Seq, oneLine(d.Reason), oneLine(d.Expected), oneLine(d.Actual), d.Pos)
		}
	}
	if failed {
		os.Exit(1)
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "replayalone:", err)
	os.Exit(2)
}
