package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probectl"
	"github.com/rules-capture/rules_capture/runtime/segment"
)

func init() {
	register("cut", command{"write a replayable slice of a log that starts at a checkpoint", stdio(runCut)})
}

const cutUsage = `usage: capture cut -from SEQ|checkpoint:K [-to SEQ] -o OUT LOG

Writes a segment of LOG: a log that starts at a checkpoint and replays alone
(docs/design/checkpoints.md). It holds the run's package initialisation, the
checkpoint, and the events after it:
  -from SEQ           starts at the last checkpoint at or before event SEQ
  -from checkpoint:K  starts at the K-th checkpoint of LOG (from 1)
  -to SEQ             ends at the last quiescent point (CHECKPOINT or
                      NO_CHECKPOINT event) at or before event SEQ; default:
                      LOG's end (a log whose writer did not close it: its
                      last quiescent point)
Sequence numbers are LOG's. The segment's metadata keeps LOG's run ID and
says where in the run it starts (rules_capture.segment_from); its own
events are numbered from 1.`

func runCut(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("capture cut", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "SEQ or checkpoint:K: where the segment starts")
	to := fs.Uint64("to", 0, "SEQ: end at the last quiescent point at or before it (0: the log's end)")
	out := fs.String("o", "", "output file (required; never overwritten)")
	if !parseLogFlags(fs, args, stderr, cutUsage) {
		return 2
	}
	if *out == "" || *from == "" || fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	res, err := cutLog(fs.Arg(0), *out, *from, *to)
	if err != nil {
		fmt.Fprintf(stderr, "capture cut: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: segment of run %s from its event %d (checkpoint %d of %s), %d events (%d of package initialisation)\n",
		*out, res.run, res.origin, res.checkpoint, fs.Arg(0), res.events, res.initEvents)
	return 0
}

type cutResult struct {
	run                string
	origin             uint64 // seq in the run of the checkpoint
	checkpoint         int    // its number in the log, from 1
	events, initEvents int
}

// cutLog writes the segment of log path that starts at the checkpoint from
// names, to out.
func cutLog(path, out, from string, to uint64) (cutResult, error) {
	var res cutResult
	var fromSeq uint64
	nth := 0
	if k, ok := strings.CutPrefix(from, "checkpoint:"); ok {
		n, err := strconv.Atoi(k)
		if err != nil || n < 1 {
			return res, fmt.Errorf("-from %s: want checkpoint:K with K from 1", from)
		}
		nth = n
	} else {
		n, err := strconv.ParseUint(from, 10, 64)
		if err != nil || n == 0 {
			return res, fmt.Errorf("-from %s: want a sequence number (from 1) or checkpoint:K", from)
		}
		fromSeq = n
	}
	events, meta, err := readAll(path)
	if err != nil {
		return res, err
	}
	if meta.Status.Dropped > 0 {
		return res, fmt.Errorf("%s is incomplete (%d events dropped): a segment of it would not replay", path, meta.Status.Dropped)
	}
	// The checkpoint: by number, or the last at or before fromSeq.
	start := -1
	count := 0
	for i := range events {
		if events[i].Kind != eventlog.KindCheckpoint {
			continue
		}
		count++
		if nth > 0 && count == nth || nth == 0 && events[i].Seq <= fromSeq {
			start, res.checkpoint = i, count
		}
		if nth > 0 && count == nth || nth == 0 && events[i].Seq > fromSeq {
			break
		}
	}
	if start < 0 {
		var refused []string
		for i := range events {
			if events[i].Kind == eventlog.KindNoCheckpoint {
				if why, err := segment.NoCheckpointReason(events[i].Values); err == nil && len(refused) < 3 {
					refused = append(refused, fmt.Sprintf("seq %d: %s", events[i].Seq, why))
				}
			}
		}
		msg := fmt.Sprintf("%s has no checkpoint %s (it has %d; capture with %s=N to take them)", path, describeFrom(from), count, probectl.EnvCheckpointEvery)
		if len(refused) > 0 {
			msg += "; refused: " + strings.Join(refused, "; ")
		}
		return res, errors.New(msg)
	}
	cp := &events[start]
	if _, err := segment.InitEnd(cp.Values); err != nil {
		return res, fmt.Errorf("%s: the checkpoint at seq %d: %v", path, cp.Seq, err)
	}
	// The end: the last quiescent point at or before to, or the log's end.
	end := len(events)
	if to != 0 || !meta.Status.Closed {
		end = -1
		for i := start; i < len(events); i++ {
			if to != 0 && events[i].Seq > to {
				break
			}
			if k := events[i].Kind; k == eventlog.KindCheckpoint || k == eventlog.KindNoCheckpoint {
				end = i + 1
			}
		}
		if end < 0 {
			return res, fmt.Errorf("-to %d is before the checkpoint at seq %d", to, cp.Seq)
		}
	}
	seg, err := segment.Cut(events, meta, start, end)
	if err != nil {
		return res, fmt.Errorf("%s: %v", path, err)
	}
	if err := seg.Write(out); err != nil {
		return res, err
	}
	res.run, res.origin, res.events, res.initEvents = seg.Meta.RunID, seg.Origin, len(seg.Events), seg.InitEvents
	return res, nil
}

func describeFrom(from string) string {
	if strings.HasPrefix(from, "checkpoint:") {
		return strings.TrimPrefix(from, "checkpoint:")
	}
	return "at or before event " + from
}

// readAll reads every event of a log (values copied).
func readAll(path string) ([]eventlog.Event, eventlog.Meta, error) {
	r, err := eventlog.Open(path)
	if err != nil {
		return nil, eventlog.Meta{}, err
	}
	defer r.Close()
	var events []eventlog.Event
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, eventlog.Meta{}, fmt.Errorf("reading %s: %w", path, err)
		}
		events = append(events, e.Clone())
	}
	return events, r.Meta(), nil
}
