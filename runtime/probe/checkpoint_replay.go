package probe

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Replay of a segment: a log cut at a checkpoint (capture cut), which holds
// the run's package initialisation events, the CHECKPOINT event it starts
// with (its metadata's SegmentFrom) and the events after it. Package
// initialisation replays as in any log; then, before any incall is driven,
// restoreSegment sets the observed set's variables and objects to the
// checkpoint's state and binds the objects to their IDs, so that the events
// after it replay as after the whole prefix of the run.

// segment is what the player keeps of a log's checkpoints.
type segment struct {
	from     uint64 // seq in its run of the checkpoint the segment starts with (0: a whole run)
	values   []byte // that checkpoint's Values, once read
	at       int    // index in the player's events of the first event after it
	restored map[uint64]bool
}

// nextPlayed returns the next event of r that replay plays (every reading
// of the log goes through it, so that event indices agree): CHECKPOINT and
// NO_CHECKPOINT events are skipped. In a whole run's log they are only
// skipped, as replay from the start rebuilds the state itself; in a segment
// (its metadata's SegmentFrom) the first CHECKPOINT is the state it starts
// from, kept at the first reading with the index of the event after it.
func (p *player) nextPlayed(r *eventlog.Reader) (*eventlog.Event, error) {
	if p.seg == nil {
		p.seg = &segment{from: r.Meta().SegmentFrom}
	}
	for {
		e, err := r.Next()
		if err != nil || e.Kind != eventlog.KindCheckpoint && e.Kind != eventlog.KindNoCheckpoint {
			return e, err
		}
		if e.Kind == eventlog.KindCheckpoint && p.seg.from != 0 && p.seg.values == nil {
			// A segment starts with its checkpoint (after the run's package
			// initialisation); later ones are for cutting it again.
			p.seg.values = bytes.Clone(e.Values)
			p.seg.at = p.total // the first reading (loadLog) counts the events before it
		}
	}
}

// seedCheckpointNames adds the object IDs a segment's checkpoint names to
// the log's names (computeFirstAppearances) where the checkpoint stands,
// before event index i, so that an object it restores does not count as
// first appearing at a later event; the initialisation events before it
// number objects as in the whole run.
func (p *player) seedCheckpointNames(i int, n *objectNames) {
	if p.seg == nil || p.seg.values == nil || i != p.seg.at {
		return
	}
	located := &p.first.located
	_ = value.ObjectRefsLocated(p.seg.values, func(id uint64, name string) {
		if id != 0 && id < localIDs {
			n.add(id, name)
		}
	}, located.at)
}

// initFuncsOf returns the function values of observed code that vars hold,
// by name, less names that more than one value has.
func initFuncsOf(vars []StateVarRef) map[string]reflect.Value {
	m := map[string]reflect.Value{}
	dup := map[string]bool{}
	walkFuncs(vars, func(f reflect.Value) {
		name := funcName(f.Pointer())
		if old, ok := m[name]; ok && closurePointer(old) != closurePointer(f) {
			dup[name] = true
		}
		m[name] = f
	})
	for name := range dup {
		delete(m, name)
	}
	return m
}

// restoreSegment restores a segment's checkpoint (before any incall is
// driven); it returns a report of the error if it cannot.
func (p *player) restoreSegment() *Report {
	sg := p.seg
	if sg == nil || sg.from == 0 {
		return nil
	}
	fail := func(format string, args ...any) *Report {
		msg := fmt.Sprintf("segment starting at checkpoint seq %d: ", sg.from) + fmt.Sprintf(format, args...)
		return &Report{Log: p.report.Log, Verdict: "error", Check: p.report.Check, Events: p.report.Events, Notes: []string{msg}}
	}
	if sg.values == nil {
		return fail("the log holds no CHECKPOINT event")
	}
	// Linked: an external object in an interface is made as its own type
	// where the binary links it, as a value observed code reflects over
	// is (DecodeReflected): the events after the checkpoint may write its
	// contents into it (pflag's AddGoFlagSet keeps the *flag.FlagSet whose
	// flags' values later incalls carry), which a stand-in of the
	// interface could not hold.
	d := value.Decoder{Buf: sg.values, Resolver: p, Linked: true}
	format := d.Uint()
	if format != 1 && format != checkpointFormat {
		return fail("checkpoint format %d, this replay reads 1 to %d", format, checkpointFormat)
	}
	d.Uint() // the end of package initialisation: for capture cut
	next := d.Uint()
	stateVars.Lock()
	byName, vars := stateVars.byName, stateVars.list
	stateVars.Unlock()
	if format >= 2 {
		// Function values the variables held after initialisation, by
		// name: replay's initialisation made the same ones, which the
		// variables hold now, before the checkpoint sets them.
		nf := d.Uint()
		var mine map[string]reflect.Value
		for i := uint64(0); i < nf && d.Err == nil; i++ {
			id, name := d.Uint(), d.String()
			if d.Err != nil {
				break
			}
			if mine == nil {
				mine = initFuncsOf(vars)
			}
			f, ok := mine[name]
			if !ok {
				return fail("the checkpoint holds function value %s, which this build's initialisation did not leave in a package variable (or left more than one of)", name)
			}
			p.Bind(id, f, value.TypeName(f.Type()))
		}
	}
	nv := d.Uint()
	for i := uint64(0); i < nv && d.Err == nil; i++ {
		name := d.String()
		v, ok := byName[name]
		if !ok {
			return fail("the checkpoint holds variable %s, which this build does not declare", name)
		}
		if d.Bool() {
			continue // as replay's initialisation left it
		}
		d.Where = "variable " + name
		d.DecodeValue(reflect.NewAt(v.t, v.p).Elem())
	}
	no := d.Uint()
	for i := uint64(0); i < no && d.Err == nil; i++ {
		d.Where = "an object of the checkpoint"
		if format == 1 {
			// Format 1: an interface value.
			var x any
			d.DecodeValue(reflect.ValueOf(&x).Elem())
			continue
		}
		name := d.String()
		t, ok := value.LookupType(name)
		if d.Err == nil && !ok {
			return fail("the checkpoint holds an object of type %s, which this build does not register", name)
		}
		if d.Err == nil {
			d.DecodeValue(reflect.New(reflect.PointerTo(t)).Elem())
		}
	}
	// The pointees of crossed pointers to data (format 2): their
	// placeholders, made by the references before, get the contents.
	for format >= 2 && d.Err == nil && d.Bool() {
		id := d.Uint()
		obj, ok := p.Object(id)
		if d.Err == nil && (!ok || obj.Kind() != reflect.Pointer || obj.IsNil()) {
			return fail("the checkpoint holds the contents of object %d, which it does not name as a pointer", id)
		}
		if obj.Elem().Kind() == reflect.Struct {
			// The stand-in of an interface (a reference held in an any): it
			// holds no contents in a whole run's replay either.
			d.Skip()
			continue
		}
		d.Where = fmt.Sprintf("the contents of object %d", id)
		d.DecodeValue(obj.Elem())
	}
	if format >= 2 && d.Err == nil {
		// The turn counters: replay's counts start where the capture's
		// were at the checkpoint.
		p.mu.Lock()
		if p.locks == nil {
			p.locks = map[uint64]*replayLock{}
		}
		for n := d.Uint(); n > 0 && d.Err == nil; n-- {
			num, writes, reads := d.Uint(), d.Uint(), d.Uint()
			p.locks[num] = &replayLock{writes: writes, reads: reads}
		}
		if p.chanCount == nil {
			p.chanCount = map[uint64]uint64{}
		}
		for n := d.Uint(); n > 0 && d.Err == nil; n-- {
			num, count := d.Uint(), d.Uint()
			p.chanCount[num] = count
		}
		p.mu.Unlock()
	}
	if d.Err != nil {
		return fail("decoding the checkpoint: %v", d.Err)
	}
	// Objects the checkpoint named by its own local IDs are the observed
	// set's own, not yet numbered: their first crossing numbers them, as
	// in the capture. The others have crossed before: their next sight is
	// by ID, not contents.
	// The size each object was seen as in the capture: the type the
	// checkpoint names it by. Replay may have made a larger whole (an
	// object the log names by a struct and its first field, WholeResolver);
	// a later sight as that larger type is a first sight, as it was in the
	// capture (corpus firstfield).
	seenSize := map[uint64]uintptr{}
	named := map[uint64]bool{}
	_ = value.ObjectRefs(sg.values, func(id uint64, name string) {
		named[id] = true
		if _, ok := seenSize[id]; ok || !strings.HasPrefix(name, "*") {
			return
		}
		if t, ok := value.LookupType(name[1:]); ok {
			seenSize[id] = t.Size()
		}
	})
	p.objMu.Lock()
	sg.restored = map[uint64]bool{}
	for id, v := range p.byID {
		if id >= localIDs {
			delete(p.byID, id)
			if k := p.key(v); k != nil {
				delete(p.ids, k)
			}
			continue
		}
		if p.premade[id] && !named[id] {
			// Made as the object a restored one lies in
			// (replay_located.go), which crosses after the checkpoint: new
			// at that sight.
			continue
		}
		sg.restored[id] = true
		if k := p.key(v); k != nil {
			if o, ok := p.ids[k]; ok && o.id == id {
				o.fresh = false
				if size, ok := seenSize[id]; ok {
					o.size = size
				} else {
					o.size = max(o.size, pointeeSize(concrete(v)))
				}
				p.ids[k] = o
			}
		}
	}
	if next > 0 && next-1 > p.maxID && next-1 < varIDs {
		p.maxID = next - 1
	}
	p.objMu.Unlock()
	// The restored exported variables are the baseline of later writes.
	watched.Lock()
	s := &Stream{}
	for _, v := range watched.vars {
		if next, _ := v.current(s, nil); next != nil {
			v.last.Store(next)
		}
	}
	watched.Unlock()
	p.report.Notes = append(p.report.Notes, fmt.Sprintf("segment: replayed from the checkpoint at seq %d of its run (%d variables, %d objects restored)", sg.from, nv, no))
	return nil
}
