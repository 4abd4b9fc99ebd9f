package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/rules-capture/rules_capture/tool/minimize"
)

func init() {
	register("explain", command{"say what each event of a (minimal) log means, in terms of the observed package's API", func(args []string) int {
		return runExplain(args, os.Stdout, os.Stderr)
	}})
}

func runExplain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("capture explain", flag.ContinueOnError)
	maxEvents := fs.Int("max", 2000, "explain at most this many events (0: all); a field log can hold millions, a minimal one a handful")
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: capture explain [-max N] LOG\n\nSays what each event of LOG means for a reader: the calls into the observed package, what it asked of the outside and was answered, what it answered, where it panicked.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	l, err := minimize.Read(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "capture explain:", err)
		return 1
	}
	events := l.Events
	minimize.ExplainHeader(stdout, l, events, filepath.Base(fs.Arg(0)))
	notes := map[uint64]string{}
	if f, seq, ok := l.RecordedPanic(); ok {
		notes[seq] = "the log ends this call with this panic: " + f.String()
	}
	if *maxEvents > 0 && len(events) > *maxEvents {
		defer fmt.Fprintf(stdout, "... %d more events (-max 0 explains all)\n", len(events)-*maxEvents)
		events = events[:*maxEvents]
	}
	minimize.Explain(stdout, events, notes)
	return 0
}
