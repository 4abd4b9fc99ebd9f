// Package segment cuts a log at one of its checkpoints into a segment: a
// log that holds the run's package initialisation, the checkpoint and the
// events after it, and replays alone (docs/design/checkpoints.md). capture
// cut writes one; capture minimize replays one to start from the nearest
// checkpoint before a failure. It lives under runtime, next to the log
// format, so that code of the capture runtime can cut segments too.
package segment

import (
	"fmt"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Segment is a cut: its events, renumbered from 1, and its metadata.
type Segment struct {
	Events []eventlog.Event
	Meta   eventlog.Meta
	// Orig[i] is the seq, in the log that was cut, of Events[i].
	Orig []uint64
	// Origin is the checkpoint's seq in the run (for a segment of a
	// segment, counted from the run's start, not the log's).
	Origin     uint64
	InitEvents int // events of package initialisation, before the checkpoint
}

// Cut cuts events (a log's, in seq order, with its metadata meta) at the
// CHECKPOINT events[start], keeping the events up to events[end-1]. It
// keeps the events up to the end of package initialisation the
// checkpoint records except the incalls that in-package test files'
// variable initialisers made then (replay performs those after
// initialisation, and their effect is in the checkpoint's state) and the
// other checkpoints there, then the checkpoint and what follows it.
// Events are renumbered densely; a parent before the checkpoint (a
// callback's origin outcall) becomes 0, as in logs that did not record
// it; the checkpoint's end of initialisation follows the renumbering. The
// metadata keeps the run ID and says where in the run the segment starts.
// events is not modified.
func Cut(events []eventlog.Event, meta eventlog.Meta, start, end int) (*Segment, error) {
	if start < 0 || start >= len(events) || events[start].Kind != eventlog.KindCheckpoint {
		return nil, fmt.Errorf("event %d is not a checkpoint", start)
	}
	if end <= start || end > len(events) {
		return nil, fmt.Errorf("the segment's end %d is not after its checkpoint %d", end, start)
	}
	cp := &events[start]
	initEnd, err := InitEnd(cp.Values)
	if err != nil {
		return nil, fmt.Errorf("the checkpoint at seq %d: %v", cp.Seq, err)
	}
	s := &Segment{}
	var initIncall uint64 // seq of the test initialiser's incall being left out
	for i := range events[:start] {
		e := &events[i]
		if e.Seq > initEnd || e.Kind == eventlog.KindCheckpoint || e.Kind == eventlog.KindNoCheckpoint {
			continue
		}
		// Incalls that an in-package test file's variable initialisers
		// made during initialisation (top-level CALL_INs of stream 0),
		// with everything nested in them.
		if initIncall == 0 && e.Stream == 0 && e.Kind == eventlog.KindCallIn && e.Parent == 0 {
			initIncall = e.Seq
		}
		if initIncall != 0 {
			if e.Stream == 0 && e.Parent == initIncall && (e.Kind == eventlog.KindReturnIn || e.Kind == eventlog.KindPanicOut) {
				initIncall = 0
			}
			continue
		}
		s.Events = append(s.Events, *e)
	}
	s.InitEvents = len(s.Events)
	s.Events = append(s.Events, events[start:end]...)
	renum := make(map[uint64]uint64, len(s.Events))
	s.Orig = make([]uint64, len(s.Events))
	for i := range s.Events {
		s.Orig[i] = s.Events[i].Seq
		renum[s.Events[i].Seq] = uint64(i + 1)
	}
	for i := range s.Events {
		e := &s.Events[i]
		e.Seq = uint64(i + 1)
		e.Parent = renum[e.Parent]
		if e.Kind == eventlog.KindCheckpoint {
			v, err := WithInitEnd(e.Values, uint64(s.InitEvents))
			if err != nil {
				return nil, fmt.Errorf("the checkpoint at seq %d: %v", s.Orig[i], err)
			}
			e.Values = v
		}
	}
	s.Origin = cp.Seq
	if meta.SegmentFrom != 0 {
		// A segment of a segment: its events after its own checkpoint are
		// the run's, in order, from that checkpoint's seq in the run.
		for i := range events {
			if events[i].Kind == eventlog.KindCheckpoint {
				s.Origin = meta.SegmentFrom + (cp.Seq - events[i].Seq)
				break
			}
		}
	}
	meta.SegmentFrom = s.Origin
	meta.Status = eventlog.Status{}
	s.Meta = meta
	return s, nil
}

// Write writes the segment as a closed log at path (never overwritten).
func (s *Segment) Write(path string) error {
	w, err := eventlog.Create(path, s.Meta, eventlog.Options{Policy: eventlog.Block})
	if err != nil {
		return err
	}
	for i := range s.Events {
		e := s.Events[i]
		w.Append(&e)
	}
	return w.Close()
}

// InitEnd returns the seq of the last event of package initialisation that
// a CHECKPOINT event's values record (after the checkpoint format, 1;
// runtime/probe checkpoint.go, docs/log-format.md).
func InitEnd(vals []byte) (uint64, error) {
	d := value.Decoder{Buf: vals}
	if v := d.Uint(); d.Err == nil && v != 1 && v != 2 {
		return 0, fmt.Errorf("checkpoint format %d, this version reads 1 and 2", v)
	}
	end := d.Uint()
	return end, d.Err
}

// WithInitEnd returns a CHECKPOINT event's values with the end of
// initialisation set to end.
func WithInitEnd(vals []byte, end uint64) ([]byte, error) {
	d := value.Decoder{Buf: vals}
	v := d.Uint()
	if d.Err == nil && v != 1 && v != 2 {
		return nil, fmt.Errorf("checkpoint format %d, this version reads 1 and 2", v)
	}
	d.Uint()
	if d.Err != nil {
		return nil, d.Err
	}
	b := value.AppendUint(nil, v)
	b = value.AppendUint(b, end)
	return append(b, vals[d.Off:]...), nil
}

// NoCheckpointReason returns the reason a NO_CHECKPOINT event gives.
func NoCheckpointReason(vals []byte) (string, error) {
	d := value.Decoder{Buf: vals}
	s := d.String()
	return s, d.Err
}
