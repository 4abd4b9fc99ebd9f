package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

func init() {
	register("inspect", command{"list the events of a log, with filters", stdio(runInspect)})
}

// eventFilter selects events for inspect.
type eventFilter struct {
	kinds   map[eventlog.Kind]bool // nil: all
	site    string                 // substring of the site
	streams map[uint32]bool        // nil: all
	from    uint64
	to      uint64 // inclusive; 0: no bound
}

func (f *eventFilter) match(e *eventlog.Event) bool {
	if f.kinds != nil && !f.kinds[e.Kind] {
		return false
	}
	if f.site != "" && !strings.Contains(e.Site, f.site) {
		return false
	}
	if f.streams != nil && !f.streams[e.Stream] {
		return false
	}
	return e.Seq >= f.from && (f.to == 0 || e.Seq <= f.to)
}

func parseFilter(kinds, site, streams, seq string) (*eventFilter, error) {
	f := &eventFilter{site: site}
	if kinds != "" {
		f.kinds = map[eventlog.Kind]bool{}
		for _, k := range strings.Split(kinds, ",") {
			kind, ok := eventlog.ParseKind(strings.ToUpper(strings.TrimSpace(k)))
			if !ok {
				return nil, fmt.Errorf("-kind %q: not a kind (CALL_IN, RETURN_IN, PANIC_OUT, CALL_OUT, RETURN_OUT, PANIC_IN, READ_OUT, WRITE_OUT, WRITE_IN, GO)", k)
			}
			f.kinds[kind] = true
		}
	}
	if streams != "" {
		f.streams = map[uint32]bool{}
		for _, s := range strings.Split(streams, ",") {
			n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 32)
			if err != nil {
				return nil, fmt.Errorf("-stream %q: want stream numbers, e.g. 0,3", s)
			}
			f.streams[uint32(n)] = true
		}
	}
	if seq != "" {
		lo, hi, ok := strings.Cut(seq, ":")
		var err error
		if lo != "" {
			if f.from, err = strconv.ParseUint(lo, 10, 64); err != nil {
				return nil, fmt.Errorf("-seq %q: want FROM:TO, FROM: or :TO", seq)
			}
		}
		if !ok {
			f.to = f.from // a single seq
		} else if hi != "" {
			if f.to, err = strconv.ParseUint(hi, 10, 64); err != nil {
				return nil, fmt.Errorf("-seq %q: want FROM:TO, FROM: or :TO", seq)
			}
		}
	}
	return f, nil
}

// renderValues describes encoded values as text (runtime/value), falling
// back to hex for bytes that do not decode.
func renderValues(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	s, err := value.Render(b)
	if err != nil {
		return "0x" + hex.EncodeToString(b) + " (undecodable: " + err.Error() + ")"
	}
	return s
}

type inspectEvent struct {
	Log       string `json:"log,omitempty"` // with more than one log
	Seq       uint64 `json:"seq"`
	Stream    uint32 `json:"stream"`
	Kind      string `json:"kind"`
	Parent    uint64 `json:"parent"`
	Site      string `json:"site"`
	Pos       string `json:"pos"`
	RecvType  string `json:"recv_type,omitempty"`
	RecvID    uint64 `json:"recv_id,omitempty"`
	Values    string `json:"values"`
	ValuesHex string `json:"values_hex"`
}

func runInspect(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("capture inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kinds := fs.String("kind", "", "only these kinds, comma-separated (e.g. CALL_OUT,RETURN_OUT)")
	site := fs.String("site", "", "only sites containing this text (e.g. time.Now)")
	streams := fs.String("stream", "", "only these streams, comma-separated")
	seq := fs.String("seq", "", "only this seq range: FROM:TO (inclusive), FROM:, :TO or one SEQ")
	asJSON := fs.Bool("json", false, "one JSON object per event (JSON Lines), no header")
	rawHex := fs.Bool("hex", false, "show values as hex instead of decoding them")
	limit := fs.Int("limit", 0, "stop after this many matching events (0: all)")
	if !parseLogFlags(fs, args, stderr, "usage: capture inspect [-kind K,...] [-site TEXT] [-stream N,...] [-seq FROM:TO] [-json] LOG|DIR...\n\nA folder stands for every *.arrow log below it.") {
		return 2
	}
	filter, err := parseFilter(*kinds, *site, *streams, *seq)
	if err != nil {
		fmt.Fprintf(stderr, "capture inspect: %v\n", err)
		return 2
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	logs := expandLogs(fs.Args())
	opts := inspectOptions{filter: filter, asJSON: *asJSON, rawHex: *rawHex, limit: *limit, named: len(logs) > 1}
	tally := tallyLogs(logs, func(path string) error {
		return inspectLog(w, path, opts)
	}, func(_ string, err error) string {
		w.Flush()
		fmt.Fprintf(stderr, "capture inspect: %v\n", err)
		return "not read to its end"
	})
	w.Flush()
	return tally.finish(stderr, "capture inspect")
}

type inspectOptions struct {
	filter         *eventFilter
	asJSON, rawHex bool
	limit          int  // per log
	named          bool // several logs: JSON lines say which
}

// inspectLog lists the events of one log.
func inspectLog(w *bufio.Writer, path string, o inspectOptions) error {
	r, err := eventlog.Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	enc := json.NewEncoder(w)
	if !o.asJSON {
		m := r.Meta()
		fmt.Fprintf(w, "# %s: format %d, run %s, started %s, %s\n", path, m.FormatVersion, m.RunID,
			m.StartTime.Format("2006-01-02T15:04:05.000Z07:00"), describeStatus(m.Status))
		fmt.Fprintf(w, "# observed %s, build %q, %s, sources %s\n", strings.Join(m.ObservedPackages, " "), m.BuildLabel, m.GoVersion, m.SourceHash)
	}
	logName := ""
	if o.named {
		logName = path
	}
	n := 0
	for e, err := range r.All() {
		if o.limit != 0 && n >= o.limit {
			break
		}
		if err != nil {
			return err
		}
		if !o.filter.match(e) {
			continue
		}
		n++
		vals := hex.EncodeToString(e.Values)
		if !o.rawHex {
			vals = renderValues(e.Values)
		}
		if o.asJSON {
			if err := enc.Encode(inspectEvent{logName, e.Seq, e.Stream, e.Kind.String(), e.Parent, e.Site, e.Pos,
				e.RecvType, e.RecvID, vals, hex.EncodeToString(e.Values)}); err != nil {
				return err
			}
			continue
		}
		recv := ""
		if e.RecvType != "" || e.RecvID != 0 {
			recv = fmt.Sprintf(" recv=%s#%d", e.RecvType, e.RecvID)
		}
		parent := ""
		if e.Parent != 0 {
			parent = fmt.Sprintf(" parent=%d", e.Parent)
		}
		fmt.Fprintf(w, "%8d s%-3d %-10s %s (%s)%s%s: %s\n", e.Seq, e.Stream, e.Kind, e.Site, e.Pos, recv, parent, vals)
	}
	if tt, torn := r.Torn(); torn && !o.asJSON && (o.limit == 0 || n < o.limit) {
		fmt.Fprintf(w, "# %s\n", describeTorn(tt))
	}
	return nil
}

func describeStatus(s eventlog.Status) string {
	var parts []string
	if s.Closed {
		parts = append(parts, "closed")
	} else {
		parts = append(parts, "not closed (writer killed or still writing)")
	}
	parts = append(parts, fmt.Sprintf("%d events at last flush", s.Events))
	if s.Dropped > 0 {
		parts = append(parts, fmt.Sprintf("%d DROPPED (log incomplete)", s.Dropped))
	}
	if s.Blocked > 0 {
		parts = append(parts, fmt.Sprintf("%d appends waited for the writer", s.Blocked))
	}
	return strings.Join(parts, ", ")
}

func describeTorn(t eventlog.TornTail) string {
	if t.Bytes == 0 {
		return fmt.Sprintf("log ends at offset %d without an end marker: its writer was killed or is still writing", t.Offset)
	}
	return fmt.Sprintf("log ends in a partly written batch at offset %d (%d bytes ignored): its writer was killed", t.Offset, t.Bytes)
}
