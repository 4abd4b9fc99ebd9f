package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

func init() {
	register("verify", command{"check logs without replaying them: every batch and checksum, the event count, the metadata", stdio(runVerify)})
}

// verified is what capture verify found in one intact log.
type verified struct {
	meta     eventlog.Meta
	events   uint64
	torn     eventlog.TornTail
	isTorn   bool
	seqGaps  uint64 // sequence numbers missing between the first and the last event
	firstSeq uint64
	// checksums: the batches had checksums (all verified).
	checksums bool
}

// verifyLog reads every event of the log at path, which makes the reader
// check every batch: its checksum (format 4 on), its structure, the order
// of the sequence numbers, and, for a log its writer closed, that no event
// is missing. verifyLog adds what only a whole read can tell: the metadata
// names the observed packages, and the sequence numbers account for every
// event the status does not count as dropped.
func verifyLog(path string) (*verified, error) {
	r, err := eventlog.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	v := &verified{meta: r.Meta()}
	var last uint64
	for e, err := range r.All() {
		if err != nil {
			return nil, err
		}
		if v.events == 0 {
			v.firstSeq = e.Seq
			v.seqGaps = e.Seq - 1
		} else {
			v.seqGaps += e.Seq - last - 1
		}
		last = e.Seq
		v.events++
	}
	v.torn, v.isTorn = r.Torn()
	v.checksums = r.Checksummed()
	m := v.meta
	if len(m.ObservedPackages) == 0 {
		return nil, fmt.Errorf("log %s names no observed packages (%s): not a capture log", path, eventlog.MetaObservedPackages)
	}
	for _, p := range m.ObservedPackages {
		if p == "" || strings.ContainsAny(p, " \t\n\"") {
			return nil, fmt.Errorf("log %s: observed package %q is not an import path", path, p)
		}
	}
	// Every Append takes a sequence number, and a dropped event keeps its
	// own: so the missing numbers are at most the dropped events (fewer
	// if the last ones were dropped).
	if st := m.Status; st.Closed && v.seqGaps > st.Dropped {
		return nil, fmt.Errorf("log %s: %s sequence numbers are missing between its events, but its status counts %s dropped: the file is corrupt",
			path, eventlog.Commas(v.seqGaps), eventlog.Commas(st.Dropped))
	}
	return v, nil
}

// line is the one line capture verify prints for an intact log.
func (v *verified) line(path string) string {
	m := v.meta
	format := fmt.Sprintf("format %d", m.FormatVersion)
	if !v.checksums && v.events > 0 {
		format += " (no checksums: capture compact adds them)"
	}
	st := m.Status
	var b strings.Builder
	if st.Closed {
		fmt.Fprintf(&b, "%s: ok, %s events, closed", path, eventlog.Commas(v.events))
	} else {
		fmt.Fprintf(&b, "%s: open (writer killed or still running), %s events readable", path, eventlog.Commas(v.events))
		if v.isTorn && v.torn.Bytes > 0 {
			fmt.Fprintf(&b, " (%s bytes of a partly written batch at its end ignored)", eventlog.Commas(uint64(v.torn.Bytes)))
		}
	}
	if st.Dropped > 0 {
		fmt.Fprintf(&b, ", INCOMPLETE: %s events dropped", eventlog.Commas(st.Dropped))
	}
	fmt.Fprintf(&b, ", %s", format)
	return b.String()
}

func runVerify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("capture verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if !parseLogFlags(fs, args, stderr, `usage: capture verify LOG|DIR...

Checks logs without replaying them: reads every batch, verifies its
checksum (format 4 on) and structure, the sequence numbers, the metadata,
and that a log its writer closed holds every event its status counts.
Prints one line per log; exits 1 if any log is damaged. A log whose writer
was killed (or is still running) is not damaged: it is reported as open.
A folder stands for every *.arrow log below it.`) {
		return 2
	}
	tally := tallyLogs(expandLogs(fs.Args()), func(path string) error {
		v, err := verifyLog(path)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, v.line(path))
		return nil
	}, func(path string, err error) string {
		fmt.Fprintln(stdout, verifyErrLine(path, err))
		if !errors.Is(err, eventlog.ErrCorrupt) {
			return "not read"
		}
		return "damaged"
	})
	return tally.finish(stderr, "capture verify")
}

// verifyErrLine is the line for a log that failed: the error, which names
// the log, or the log and the error.
func verifyErrLine(path string, err error) string {
	s := strings.TrimPrefix(err.Error(), "eventlog: ")
	if strings.Contains(s, path) {
		return s
	}
	return path + ": " + s
}
