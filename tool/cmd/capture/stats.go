package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/segment"
)

func init() {
	register("stats", command{"summarise logs: counts by kind and site, bytes per event, time span, drops", stdio(runStats)})
}

type siteCount struct {
	Site  string `json:"site"`
	Count uint64 `json:"count"`
}

type logStats struct {
	Path          string    `json:"path"`
	Events        uint64    `json:"events"`
	Bytes         int64     `json:"bytes"`
	BytesPerEvent float64   `json:"bytes_per_event"`
	Streams       int       `json:"streams"`
	FirstSeq      uint64    `json:"first_seq"`
	LastSeq       uint64    `json:"last_seq"`
	Start         time.Time `json:"start"`
	End           time.Time `json:"end,omitzero"`
	Span          string    `json:"span,omitempty"`
	Closed        bool      `json:"closed"`
	Torn          bool      `json:"torn"`
	Dropped       uint64    `json:"dropped"`
	Blocked       uint64    `json:"blocked"`
	// Lost, LostWhy and LostSince: the events (counted in Dropped too)
	// lost to failed writes or the size cap, the reason and since when.
	Lost      uint64            `json:"lost,omitempty"`
	LostWhy   string            `json:"lost_why,omitempty"`
	LostSince time.Time         `json:"lost_since,omitzero"`
	SeqGaps   uint64            `json:"seq_gaps"`
	Kinds     map[string]uint64 `json:"kinds"`
	Sites     []siteCount       `json:"sites"`
	// Checkpoints taken (CHECKPOINT events) and refused (NO_CHECKPOINT),
	// with the reasons and how often each was given; SegmentFrom: the
	// log is a segment of run RunID from that event (capture cut).
	Checkpoints uint64        `json:"checkpoints,omitempty"`
	Refused     []reasonCount `json:"checkpoints_refused,omitempty"`
	RunID       string        `json:"run_id,omitempty"`
	SegmentFrom uint64        `json:"segment_from,omitempty"`
	// Rotation: the file is a segment the recorder's rotation wrote
	// (CAPTURE_ROTATE): its number, the limit, and the quiescent points
	// past the limit whose checkpoint was refused (deferred) and the
	// next files that could not be created (failed) before it started.
	Rotation string `json:"rotation,omitempty"`
	// Sampling: the file is a segment of a sampled log (CAPTURE_SAMPLE),
	// read from its rotation note.
	Sampling *samplingStats `json:"sampling,omitempty"`
	// Stored: where the file's bytes go, column by column (-columns).
	Stored []eventlog.PartBytes `json:"stored,omitempty"`
}

// samplingStats is what a sampled log's segment says about its window
// (the rotation note "... rate=0.05 length=100 seed=7 window=3 point=5230
// skipped=4123", runtime/probe sample.go).
type samplingStats struct {
	Rate   float64 `json:"rate"`   // CAPTURE_SAMPLE
	Length uint64  `json:"length"` // CAPTURE_SAMPLE_WINDOW: quiescent points per window
	Seed   uint64  `json:"seed"`
	// Window is the window's number in its run, from 1; 0 for the startup
	// segment (the run's initialisation and its events up to the first
	// quiescent point).
	Window int `json:"window"`
	// Point is the run's quiescent point the window starts at (from 1),
	// Skipped the quiescent points since the previous window (or the
	// startup segment) whose spans were not recorded, and Refused the
	// checkpoints refused at points where the window was due, which
	// delayed its start.
	Point   uint64 `json:"point,omitempty"`
	Skipped uint64 `json:"skipped"`
	Refused uint64 `json:"refused"`
}

// parseSampling reads the sampling part of a rotation note (nil for a
// note of a rotated log that was not sampled).
func parseSampling(note string) *samplingStats {
	f := map[string]string{}
	for _, kv := range strings.Fields(note) {
		if k, v, ok := strings.Cut(kv, "="); ok {
			f[k] = v
		}
	}
	if f["limit"] != "sample" {
		return nil
	}
	u := func(k string) uint64 { n, _ := strconv.ParseUint(f[k], 10, 64); return n }
	sp := &samplingStats{Length: u("length"), Seed: u("seed"), Window: int(u("window")), Point: u("point"), Skipped: u("skipped"), Refused: u("deferred")}
	sp.Rate, _ = strconv.ParseFloat(f["rate"], 64)
	return sp
}

type reasonCount struct {
	Reason string `json:"reason"`
	Count  uint64 `json:"count"`
}

func collectStats(path string) (*logStats, error) {
	r, err := eventlog.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	st := &logStats{Path: path, Kinds: map[string]uint64{}}
	if fi, err := os.Stat(path); err == nil {
		st.Bytes = fi.Size()
	}
	sites := map[string]uint64{}
	streams := map[uint32]bool{}
	refused := map[string]uint64{}
	var last uint64
	for e, err := range r.All() {
		if err != nil {
			return nil, err
		}
		if st.Events == 0 {
			st.FirstSeq = e.Seq
		} else if e.Seq != last+1 {
			st.SeqGaps += e.Seq - last - 1
		}
		last = e.Seq
		st.Events++
		st.Kinds[e.Kind.String()]++
		if c, ok := sites[e.Site]; ok {
			sites[e.Site] = c + 1
		} else {
			sites[e.Site] = 1
		}
		streams[e.Stream] = true
		switch e.Kind {
		case eventlog.KindCheckpoint:
			st.Checkpoints++
		case eventlog.KindNoCheckpoint:
			why, err := segment.NoCheckpointReason(e.Values)
			if err != nil {
				why = "(unreadable reason: " + err.Error() + ")"
			}
			refused[why]++
		}
	}
	for why, c := range refused {
		st.Refused = append(st.Refused, reasonCount{why, c})
	}
	sort.Slice(st.Refused, func(i, j int) bool {
		a, b := st.Refused[i], st.Refused[j]
		return a.Count > b.Count || a.Count == b.Count && a.Reason < b.Reason
	})
	st.LastSeq = last
	st.Streams = len(streams)
	st.BytesPerEvent = perEvent(st.Bytes, st.Events)
	m := r.Meta()
	st.Start, st.End = m.StartTime, m.Status.EndTime
	st.RunID, st.SegmentFrom, st.Rotation = m.RunID, m.SegmentFrom, m.Rotation
	st.Sampling = parseSampling(m.Rotation)
	if !st.End.IsZero() {
		st.Span = st.End.Sub(st.Start).String()
	}
	st.Closed, st.Dropped, st.Blocked = m.Status.Closed, m.Status.Dropped, m.Status.Blocked
	st.Lost, st.LostWhy, st.LostSince = m.Status.Lost, m.Status.LostWhy, m.Status.LostSince
	_, st.Torn = r.Torn()
	for s, c := range sites {
		st.Sites = append(st.Sites, siteCount{s, c})
	}
	sort.Slice(st.Sites, func(i, j int) bool {
		a, b := st.Sites[i], st.Sites[j]
		return a.Count > b.Count || a.Count == b.Count && a.Site < b.Site
	})
	return st, nil
}

func runStats(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("capture stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "one JSON object per log")
	top := fs.Int("top", 20, "show the N most frequent sites (0: all)")
	columns := fs.Bool("columns", false, "also say where the file's bytes go: each column as stored (compressed), batch headers, dictionaries")
	if !parseLogFlags(fs, args, stderr, "usage: capture stats [-json] [-top N] [-columns] LOG|DIR...\n\nA folder stands for every *.arrow log below it.") {
		return 2
	}
	tally := tallyLogs(expandLogs(fs.Args()), func(path string) error {
		st, err := collectStats(path)
		if err != nil {
			return err
		}
		if *top > 0 && len(st.Sites) > *top {
			st.Sites = st.Sites[:*top]
		}
		if *columns {
			if st.Stored, err = eventlog.StoredBytes(path); err != nil {
				return err
			}
		}
		if *asJSON {
			json.NewEncoder(stdout).Encode(st)
		} else {
			printStats(stdout, st)
		}
		return nil
	}, func(_ string, err error) string {
		fmt.Fprintf(stderr, "capture stats: %v\n", err)
		return "not read"
	})
	return tally.finish(stderr, "capture stats")
}

func printStats(w io.Writer, st *logStats) {
	fmt.Fprintf(w, "%s\n", st.Path)
	fmt.Fprintf(w, "  events      %d (seq %d..%d), %d streams\n", st.Events, st.FirstSeq, st.LastSeq, st.Streams)
	fmt.Fprintf(w, "  size        %d bytes, %.2f bytes/event\n", st.Bytes, st.BytesPerEvent)
	if len(st.Stored) > 0 {
		fmt.Fprintf(w, "  stored      bytes/event by part, as stored\n")
		for _, p := range st.Stored {
			perEvent := 0.0
			if st.Events > 0 {
				perEvent = float64(p.Bytes) / float64(st.Events)
			}
			fmt.Fprintf(w, "    %-20s %10d  %6.2f\n", p.Part, p.Bytes, perEvent)
		}
	}
	span := "unknown (no flush recorded)"
	if st.Span != "" {
		span = fmt.Sprintf("%s (%s .. %s)", st.Span, st.Start.Format(time.RFC3339), st.End.Format(time.RFC3339))
	}
	fmt.Fprintf(w, "  time span   %s\n", span)
	state := "complete"
	switch {
	case st.Dropped > 0:
		state = fmt.Sprintf("INCOMPLETE: %d events dropped", st.Dropped)
		if st.Lost > 0 {
			state += fmt.Sprintf(", %d of them lost (%s) since %s", st.Lost, st.LostWhy, st.LostSince.UTC().Format(time.RFC3339))
		}
	case st.Torn:
		state = "writer killed or still writing: the unflushed tail is missing"
	case !st.Closed:
		state = "writer did not close the log"
	}
	fmt.Fprintf(w, "  state       %s; drops %d, blocked appends %d, seq gaps %d\n", state, st.Dropped, st.Blocked, st.SeqGaps)
	if st.SegmentFrom != 0 {
		fmt.Fprintf(w, "  segment     of run %s, from its event %d\n", st.RunID, st.SegmentFrom)
	}
	if sp := st.Sampling; sp != nil {
		how := fmt.Sprintf("rate %g, windows of %d quiescent points, seed %d", sp.Rate, sp.Length, sp.Seed)
		if sp.Window == 0 {
			fmt.Fprintf(w, "  sampling    startup segment (%s): the run's initialisation and its events up to the first quiescent point; the windows are the later segments\n", how)
		} else {
			fmt.Fprintf(w, "  sampling    window %d (%s): from the run's quiescent point %d, after %d not recorded; %d checkpoints refused where it was due\n", sp.Window, how, sp.Point, sp.Skipped, sp.Refused)
		}
	} else if st.Rotation != "" {
		fmt.Fprintf(w, "  rotation    %s (deferred: quiescent points past the limit whose checkpoint was refused, so the previous file went on; failed: next files that could not be created)\n", st.Rotation)
	}
	if n := len(st.Refused); st.Checkpoints > 0 || n > 0 {
		var refused uint64
		for _, r := range st.Refused {
			refused += r.Count
		}
		fmt.Fprintf(w, "  checkpoints %d taken, %d refused\n", st.Checkpoints, refused)
		for _, r := range st.Refused {
			fmt.Fprintf(w, "    %8d  refused: %s\n", r.Count, r.Reason)
		}
	}
	fmt.Fprintf(w, "  by kind\n")
	kinds := make([]string, 0, len(st.Kinds))
	for k := range st.Kinds {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		ki, _ := eventlog.ParseKind(kinds[i])
		kj, _ := eventlog.ParseKind(kinds[j])
		return ki < kj
	})
	for _, k := range kinds {
		fmt.Fprintf(w, "    %-11s %d\n", k, st.Kinds[k])
	}
	fmt.Fprintf(w, "  by site (most frequent first)\n")
	for _, s := range st.Sites {
		fmt.Fprintf(w, "    %8d  %s\n", s.Count, s.Site)
	}
}
