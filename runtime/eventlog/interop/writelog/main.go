// Command writelog writes the event log that the interop test reads with
// apache-arrow (JavaScript): every event kind, a fixed set of sites, in
// several batches (so dictionary deltas occur), and its compacted copy; and
// the same events without compression (the writer writes record batches
// uncompressed when it falls behind, so a capture-time log may mix both).
//
// Usage: writelog DIR   (writes DIR/capture.arrows, DIR/compacted.arrow and
// DIR/uncompressed.arrows)
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// Events and the expectation the reader checks (run.sh).
const events = 5000

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: writelog DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	stream := filepath.Join(dir, "capture.arrows")
	write(stream, eventlog.Options{BatchEvents: 700})
	write(filepath.Join(dir, "uncompressed.arrows"), eventlog.Options{BatchEvents: 700, Compression: eventlog.Uncompressed})
	if _, err := eventlog.Compact(filepath.Join(dir, "compacted.arrow"), stream, eventlog.CompactOptions{BatchEvents: 2000}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func write(path string, opts eventlog.Options) {
	w, err := eventlog.Create(path, eventlog.Meta{ObservedPackages: []string{"example.com/shop/pricing"}, BuildLabel: "//interop:writelog"}, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i := 0; i < events; i++ {
		// Sites appear progressively: later batches add dictionary entries.
		site := fmt.Sprintf("example.com/shop/pricing.Func%d", i%(1+i/100)%50)
		if i%10 == 0 {
			site = "example.com/shop/pricing.Quote"
		}
		e := eventlog.Event{
			Stream: uint32(i % 3),
			Kind:   eventlog.Kind(1 + i%12), // CALL_IN .. LOCK_TURN
			Site:   site,
			Pos:    fmt.Sprintf("pricing/quote.go:%d", 10+i%7),
			Values: values(i),
		}
		w.Append(&e)
	}
	if err := w.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// values are two bytes, except in every other batch of 700 events: 80
// bytes, so that the writer stores those batches' values offsets
// uncompressed inside compressed batches (as it does for large values).
func values(i int) []byte {
	v := []byte{byte(i), byte(i >> 8)}
	if i/700%2 == 1 {
		for len(v) < 80 {
			v = append(v, byte(len(v)))
		}
	}
	return v
}
