package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

func init() {
	register("compact", command{"rewrite capture-time event logs as compact Arrow IPC files", func(args []string) int {
		return runCompact(args, os.Stdout, os.Stderr)
	}})
}

func runCompact(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("capture compact", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "output file (only with one LOG; default: rewrite each LOG in place)")
	level := fs.Int("level", 4, "zstd level: 1 fastest ... 4 smallest")
	batch := fs.Int("batch", 16384, "events per record batch")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: capture compact [-o OUT] [-level N] LOG...")
		fmt.Fprintln(stderr, "\nRewrites each log (a capture-time Arrow IPC stream, possibly cut short by a crash)\nas one Arrow IPC file: complete dictionaries, big batches, strong compression.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 || (*out != "" && fs.NArg() != 1) {
		fs.Usage()
		return 2
	}
	if *level < 1 || *level > 4 {
		fmt.Fprintf(stderr, "capture compact: -level %d: use 1 to 4\n", *level)
		return 2
	}
	status := 0
	for _, src := range fs.Args() {
		dst := src
		if *out != "" {
			dst = *out
		}
		res, err := eventlog.Compact(dst, src, eventlog.CompactOptions{BatchEvents: *batch, ZstdLevel: *level})
		if err != nil {
			fmt.Fprintf(stderr, "capture compact: %v\n", err)
			status = 1
			continue
		}
		note := ""
		if res.Torn {
			note = " (the writer was killed: its unflushed tail was lost)"
		}
		fmt.Fprintf(stdout, "%s: %d events, %d -> %d bytes (%.2f bytes/event)%s\n",
			dst, res.Events, res.InBytes, res.Bytes, perEvent(res.Bytes, res.Events), note)
	}
	return status
}

func perEvent(bytes int64, events uint64) float64 {
	if events == 0 {
		return 0
	}
	return float64(bytes) / float64(events)
}
