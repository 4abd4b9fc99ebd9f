// Package minimize reduces an event log whose replay fails into a minimal
// log that still fails the same way (docs/minimize.md): slicing over the
// object identities of the log's top-level incalls, then delta debugging
// (Zeller's ddmin) over the incalls that remain, each candidate replayed
// in a fresh process of one replay harness. It also writes what a developer
// keeps of the result: a readable listing of the interaction and a Go test
// that replays the minimal log.
package minimize

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/segment"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Log is an event log held in memory, cut into units: the parts that a
// candidate keeps or drops whole.
type Log struct {
	Meta   eventlog.Meta
	Events []eventlog.Event // in seq order, values copied
	// Unit[i] is the unit of Events[i]; -1 for an event every candidate
	// keeps (package initialisation, and what no incall encloses).
	Unit  []int
	Units []Unit
	index map[uint64]int // seq -> index in Events
	// start is, in a segment (a log that starts at a checkpoint), the
	// index of that CHECKPOINT event: every event up to it is package
	// initialisation or the checkpoint, which every candidate keeps;
	// -1 in a whole run's log.
	start int
	from  []uint64 // see newLog
}

// Unit is one top-level incall of a stream, with everything up to its
// RETURN_IN or PANIC_OUT: its outcalls and their answers, the callbacks
// inside them, the goroutines the incall started (their whole streams),
// callbacks external code made on goroutines of its own with a function
// value passed in one of its outcalls, and the WRITE_IN events that
// external code made just before it on its stream. Dropping part of that
// would leave a log no capture could have written.
type Unit struct {
	Stream uint32 // the stream of its top-level CALL_IN
	First  uint64 // seq of that CALL_IN
	Last   uint64 // seq of its last event (over every stream it owns)
	Site   string // the incall's site
	Events int
}

// Read loads the log at path.
func Read(path string) (*Log, error) {
	r, err := eventlog.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	meta := r.Meta()
	if st := meta.Status; st.Dropped > 0 {
		return nil, fmt.Errorf("%s: %d events were dropped while capturing: replay refuses such a log, and so does minimize", path, st.Dropped)
	}
	var events []eventlog.Event
	for e, err := range r.All() {
		if err != nil {
			return nil, err
		}
		c := *e
		c.Values = append([]byte(nil), e.Values...)
		events = append(events, c)
	}
	return newLog(meta, events, nil), nil
}

// newLog holds events (in seq order, from 1) as a Log cut into units. For
// a segment of another log, from[i] is the seq in that log of events[i].
func newLog(meta eventlog.Meta, events []eventlog.Event, from []uint64) *Log {
	l := &Log{Meta: meta, Events: events, index: make(map[uint64]int, len(events)), start: -1, from: from}
	for i := range events {
		l.index[events[i].Seq] = i
		if meta.SegmentFrom != 0 && l.start < 0 && events[i].Kind == eventlog.KindCheckpoint {
			l.start = i
		}
	}
	l.cut()
	return l
}

// InputSeq maps a seq of l to the log l was cut from, for a segment that
// minimize cut; otherwise it returns seq.
func (l *Log) InputSeq(seq uint64) uint64 {
	if l.from == nil {
		return seq
	}
	if i, ok := l.index[seq]; ok {
		return l.from[i]
	}
	return 0
}

// checkpoint says whether e is a CHECKPOINT or NO_CHECKPOINT event.
func checkpoint(e *eventlog.Event) bool {
	return e.Kind == eventlog.KindCheckpoint || e.Kind == eventlog.KindNoCheckpoint
}

// cut assigns every event to a unit (see Unit).
func (l *Log) cut() {
	l.Unit = make([]int, len(l.Events))
	parent := make([]int, 0) // union-find over units: a callback's unit joins its outcall's
	find := func(u int) int {
		for parent[u] != u {
			parent[u] = parent[parent[u]]
			u = parent[u]
		}
		return u
	}
	type streamState struct {
		depth   int
		unit    int   // unit of the current top-level block (-1: kept always)
		owner   int   // for a goroutine the observed code started: its starter's unit; else -2
		pending []int // WRITE_IN events at depth 0 waiting for the next incall
	}
	streams := map[uint32]*streamState{}
	get := func(id uint32) *streamState {
		s := streams[id]
		if s == nil {
			s = &streamState{unit: -1, owner: -2}
			streams[id] = s
		}
		return s
	}
	unitOf := func(seq uint64) int {
		if i, ok := l.index[seq]; ok && l.Unit[i] >= 0 {
			return find(l.Unit[i])
		}
		return -1
	}
	for i := range l.Events {
		e := &l.Events[i]
		if i <= l.start || checkpoint(e) {
			// A segment's initialisation and its checkpoint, kept
			// always; the other checkpoints, whose state would include
			// the units a candidate drops, are dropped (Candidate).
			l.Unit[i] = -1
			continue
		}
		s := get(e.Stream)
		if s.depth == 0 {
			switch {
			case s.owner != -2:
				s.unit = s.owner
			case e.Kind == eventlog.KindCallIn:
				s.unit = len(parent)
				parent = append(parent, s.unit)
				l.Units = append(l.Units, Unit{Stream: e.Stream, First: e.Seq, Site: e.Site})
				// A callback that external code made on a goroutine of
				// its own, with a function value an outcall passed: it
				// belongs with that outcall's incall.
				if e.Parent != 0 {
					if u := unitOf(e.Parent); u >= 0 {
						parent[s.unit] = u
					}
				}
				for _, p := range s.pending {
					l.Unit[p] = s.unit
				}
				s.pending = nil
			case e.Kind == eventlog.KindWriteIn:
				s.pending = append(s.pending, i)
				l.Unit[i] = -1 // until an incall follows
				continue
			default:
				s.unit = -1 // package initialisation and the like
			}
		}
		l.Unit[i] = s.unit
		switch e.Kind {
		case eventlog.KindCallIn, eventlog.KindCallOut:
			s.depth++
		case eventlog.KindReturnIn, eventlog.KindPanicOut, eventlog.KindReturnOut, eventlog.KindPanicIn:
			if s.depth > 0 {
				s.depth--
			}
		case eventlog.KindGo:
			d := value.Decoder{Buf: e.Values}
			if child := uint32(d.Uint()); d.Err == nil {
				get(child).owner = s.unit
			}
		}
	}
	for i := range l.Unit {
		if l.Unit[i] >= 0 {
			l.Unit[i] = find(l.Unit[i])
		}
	}
	// Renumber the units that remain after the merges, in order.
	renum := map[int]int{}
	var units []Unit
	for u := range parent {
		if find(u) == u {
			renum[u] = len(units)
			units = append(units, l.Units[u])
		}
	}
	for i := range l.Unit {
		if l.Unit[i] >= 0 {
			u := renum[l.Unit[i]]
			l.Unit[i] = u
			units[u].Events++
			units[u].Last = l.Events[i].Seq
		}
	}
	l.Units = units
}

// Incalls is the number of top-level incalls of the units in keep (all
// when keep is nil).
func (l *Log) Incalls(keep []int) int {
	if keep == nil {
		return len(l.Units)
	}
	return len(keep)
}

// unitsBefore counts the units that begin before the event seq.
func (l *Log) unitsBefore(seq uint64) int {
	n := 0
	for _, u := range l.Units {
		if u.First < seq {
			n++
		}
	}
	return n
}

// UnitOf returns the unit of the event seq, or -1.
func (l *Log) UnitOf(seq uint64) int {
	if i, ok := l.index[seq]; ok {
		return l.Unit[i]
	}
	return -1
}

// Event returns the event seq of the log.
func (l *Log) Event(seq uint64) (*eventlog.Event, bool) {
	i, ok := l.index[seq]
	if !ok {
		return nil, false
	}
	return &l.Events[i], true
}

// Candidate is the log that keeps the units in keep (and every event of no
// unit but the CHECKPOINT and NO_CHECKPOINT events after a segment's
// first: replay of a whole run skips them, replay of a segment restores
// only its first, and their state would count the units a candidate
// drops): events renumbered densely from 1 in their recorded order, parents
// pointing at the renumbered events, and the counts of the channel and
// lock turns recomputed over the events kept, so that replay's turns wait
// for the acquisitions and receives that are still in the log. Orig[i] is
// the original seq of the candidate's event i+1.
type Candidate struct {
	Events []eventlog.Event
	Orig   []uint64
}

// Candidate builds the candidate log of keep (indices into Units).
func (l *Log) Candidate(keep []int) *Candidate {
	in := make([]bool, len(l.Units))
	for _, u := range keep {
		in[u] = true
	}
	c := &Candidate{}
	newSeq := map[uint64]uint64{}
	locks := map[uint64]*lockCount{}
	chans := map[uint64]uint64{}
	for i := range l.Events {
		if u := l.Unit[i]; u >= 0 && !in[u] || i != l.start && checkpoint(&l.Events[i]) {
			continue
		}
		e := l.Events[i]
		n := uint64(len(c.Events) + 1)
		newSeq[e.Seq] = n
		c.Orig = append(c.Orig, e.Seq)
		e.Seq = n
		if e.Parent != 0 {
			// A parent outside the candidate (a callback's outcall in a
			// dropped unit cannot be: they share a unit) reads as none.
			e.Parent = newSeq[e.Parent]
		}
		switch e.Kind {
		case eventlog.KindLockTurn:
			e.Values = relockTurn(e, locks)
		case eventlog.KindChanTurn:
			e.Values = rechanTurn(e, chans)
		case eventlog.KindCheckpoint:
			// The segment's start: initialisation ends just before it.
			if v, err := segment.WithInitEnd(e.Values, n-1); err == nil {
				e.Values = v
			}
		}
		c.Events = append(c.Events, e)
	}
	return c
}

type lockCount struct{ writes, reads uint64 }

// relockTurn recomputes a LOCK_TURN's counts over the acquisitions kept
// before it (docs/log-format.md, LOCK_TURN): a write acquisition counts
// itself among the writes and carries the reads since the previous write,
// a read its rank among the reads since, a failed try the counts it saw.
// A read acquisition is an RLock or TryRLock: its site says so.
func relockTurn(e eventlog.Event, locks map[uint64]*lockCount) []byte {
	d := value.Decoder{Buf: e.Values}
	num, _, _, acquired := d.Uint(), d.Uint(), d.Uint(), d.Bool()
	if d.Err != nil {
		return e.Values // replay reports the damage at its event
	}
	lc := locks[num]
	if lc == nil {
		lc = &lockCount{}
		locks[num] = lc
	}
	read := strings.HasSuffix(e.Site, "RLock")
	w, r := lc.writes, lc.reads
	switch {
	case !acquired:
	case read:
		lc.reads++
		r = lc.reads
	default:
		lc.writes++
		w = lc.writes
		lc.reads = 0
	}
	b := value.AppendUint(nil, num)
	b = value.AppendUint(b, w)
	b = value.AppendUint(b, r)
	b = value.AppendBool(b, acquired)
	return append(b, e.Values[d.Off:]...)
}

// rechanTurn renumbers a CHAN_TURN's receive count over the receives kept
// before it on its channel.
func rechanTurn(e eventlog.Event, chans map[uint64]uint64) []byte {
	d := value.Decoder{Buf: e.Values}
	num, _ := d.Uint(), d.Uint()
	if d.Err != nil {
		return e.Values
	}
	chans[num]++
	b := value.AppendUint(nil, num)
	b = value.AppendUint(b, chans[num])
	return append(b, e.Values[d.Off:]...)
}

// Write writes the candidate as a closed log at path with the original
// log's metadata.
func (c *Candidate) Write(path string, meta eventlog.Meta) error {
	meta.Status = eventlog.Status{}
	w, err := eventlog.Create(path, meta, eventlog.Options{Policy: eventlog.Block})
	if err != nil {
		return err
	}
	for i := range c.Events {
		e := c.Events[i]
		w.Append(&e)
	}
	return w.Close()
}

// unitsOfStream groups unit indices by their stream, streams in order.
func (l *Log) unitsByStream(units []int) [][]int {
	by := map[uint32][]int{}
	var ids []uint32
	for _, u := range units {
		s := l.Units[u].Stream
		if by[s] == nil {
			ids = append(ids, s)
		}
		by[s] = append(by[s], u)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := make([][]int, len(ids))
	for i, s := range ids {
		out[i] = by[s]
	}
	return out
}
