package main

// Checkpoints over the corpus (docs/design/checkpoints.md). TestCorpus
// captures every program with a checkpoint at every quiescent point
// (checkpointCaptureEnv); checkSegments then cuts a sample of segments of
// each log at its checkpoints and replays each alone with the program's
// harness: all must pass, and, with the planted mutants,
// checkMutantSegments requires every segment that reaches the event where
// the whole log diverges to diverge there too.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probe"
	"github.com/rules-capture/rules_capture/runtime/segment"
)

// checkpointCaptureEnv is added to the environment of the corpus's capture
// runs: a checkpoint (or a refusal) at every quiescent point.
var checkpointCaptureEnv = []string{probe.EnvCheckpointEvery + "=1"}

// segmentsPerLog bounds the segments cut of one log: the first, the last
// and evenly spread ones between (the corpus's logs have up to a few
// hundred quiescent points; every segment of every log took minutes).
const segmentsPerLog = 4

// A corpusSegment is a segment cut of a corpus log.
type corpusSegment struct {
	path, log  string
	origin     uint64 // seq of its checkpoint in the log
	initEvents uint64 // the log's package initialisation events, seq 1..initEvents
}

// checkSegments cuts up to segmentsPerLog segments of each log, replays
// each alone with harness at check level check and requires it to pass. It
// returns the segments.
func checkSegments(t *testing.T, work, harness string, logs []string, check string) []corpusSegment {
	t.Helper()
	dir := filepath.Join(work, "segments")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var segs []corpusSegment
	var taken, refused int
	reasons := map[string]int{}
	for _, log := range logs {
		events, _, err := readAll(log)
		if err != nil {
			t.Fatal(err)
		}
		n := 0 // the log's checkpoints
		for _, e := range events {
			switch e.Kind {
			case eventlog.KindCheckpoint:
				taken++
				n++
			case eventlog.KindNoCheckpoint:
				refused++
				why, err := segment.NoCheckpointReason(e.Values)
				if err != nil || why == "" {
					t.Errorf("%s: NO_CHECKPOINT at seq %d without a reason (%v)", filepath.Base(log), e.Seq, err)
				}
				reasons[why]++
			}
		}
		for _, i := range sample(n, segmentsPerLog) {
			k := i + 1
			out := filepath.Join(dir, fmt.Sprintf("%s.seg%d.arrow", strings.TrimSuffix(filepath.Base(log), ".arrow"), k))
			res, err := cutLog(log, out, fmt.Sprintf("checkpoint:%d", k), 0)
			if err != nil {
				t.Fatalf("cut %s at checkpoint %d: %v", filepath.Base(log), k, err)
			}
			segs = append(segs, corpusSegment{path: out, log: log, origin: res.origin, initEvents: uint64(res.initEvents)})
		}
	}
	for _, s := range segs {
		r := replayAlone(t, harness, s.path, check)
		if r.Verdict != "pass" {
			t.Errorf("segment %s (checkpoint at seq %d of %s): verdict %s, divergence %+v, notes %q",
				filepath.Base(s.path), s.origin, filepath.Base(s.log), r.Verdict, r.Divergence, r.Notes)
		}
	}
	var why []string
	for r, n := range reasons {
		why = append(why, fmt.Sprintf("%d× %s", n, r))
	}
	sort.Strings(why)
	t.Logf("checkpoints: %d taken, %d refused %q; %d segments cut and replayed alone in %v", taken, refused, why, len(segs), time.Since(start).Round(time.Millisecond))
	return segs
}

// sample returns up to n of the indices 0..len-1: the first, the last and
// evenly spread ones between.
func sample(length, n int) []int {
	if length <= n {
		out := make([]int, length)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, i*(length-1)/(n-1))
	}
	return out
}

// replayAlone replays one log with harness in a child process and returns
// its report.
func replayAlone(t *testing.T, harness, log, check string) probe.Report {
	t.Helper()
	report := log + ".report.json"
	cmd := exec.Command(harness)
	cmd.Env = []string{probe.EnvReplayLog + "=" + log, probe.EnvReplayReport + "=" + report, probe.EnvReplayCheck + "=" + check}
	out, _ := cmd.CombinedOutput()
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("replay of %s wrote no report: %v\n%s", filepath.Base(log), err, out)
	}
	var r probe.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// segmentsOf returns the paths of the segments cut of logs.
func segmentsOf(segs []corpusSegment, logs []string) []string {
	var out []string
	for _, s := range segs {
		for _, l := range logs {
			if s.log == l {
				out = append(out, s.path)
			}
		}
	}
	return out
}

// checkMutantSegments checks the mutant's replays of the segments (their
// reports in reports). A segment whose events include the one where its
// whole log diverged (an event of package initialisation, which every
// segment keeps, or one after its checkpoint) diverges at that event, for
// the same reason, or passes: a mutation whose only effect is on state
// computed before the checkpoint is invisible after it, as the checkpoint
// restores the state the capture had (aftergen-init). It never diverges
// elsewhere or fails otherwise. The others may pass or diverge later.
func checkMutantSegments(t *testing.T, reports string, segs []corpusSegment, logs []string) {
	t.Helper()
	read := func(path string) *probe.Report {
		b, err := os.ReadFile(filepath.Join(reports, filepath.Base(path)+".json"))
		if err != nil {
			return nil
		}
		var r probe.Report
		if json.Unmarshal(b, &r) != nil {
			return nil
		}
		return &r
	}
	reached, same := 0, 0
	for _, s := range segs {
		if !contains(logs, s.log) {
			continue
		}
		whole, seg := read(s.log), read(s.path)
		if whole == nil || whole.Divergence == nil {
			continue
		}
		d := whole.Divergence
		if d.Seq > s.initEvents && d.Seq <= s.origin {
			continue // before the checkpoint: the segment does not hold it
		}
		reached++
		if seg == nil || seg.Verdict != "pass" && seg.Divergence == nil {
			t.Errorf("segment %s holds the event where %s diverged (seq %d: %s) and neither passed nor diverged: %+v",
				filepath.Base(s.path), filepath.Base(s.log), d.Seq, d.Expected, seg)
			continue
		}
		if seg.Divergence == nil {
			continue
		}
		sd := seg.Divergence
		if sd.Expected != d.Expected || reasonKind(sd.Reason) != reasonKind(d.Reason) {
			t.Errorf("segment %s diverged at %q (%s), its log %s at %q (%s)",
				filepath.Base(s.path), sd.Expected, sd.Reason, filepath.Base(s.log), d.Expected, d.Reason)
			continue
		}
		same++
	}
	t.Logf("segments: %d reach the logs' divergence, %d diverge there", reached, same)
}

// reasonKind is a divergence's reason without its parenthesised details,
// which may name what the events before it showed (the redacted values
// that crossed before the checkpoint, which a segment does not hold).
func reasonKind(r string) string {
	if i := strings.Index(r, " ("); i >= 0 {
		return r[:i]
	}
	return r
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
