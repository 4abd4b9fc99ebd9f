package probe

import (
	"bytes"
	"sync"
	"sync/atomic"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// A Var is an exported variable of the observed set. External code may set
// it between incalls (a test switching a package-level option); capture
// compares it with its last known value before every top-level incall and
// records a change as WRITE_IN, and replay's driver performs that write.
type Var struct {
	Name string          // "example.com/p.Option"
	Enc  func(s *Stream) // appends the variable's current value
	Dec  func(s *Stream) // sets the variable from the value being decoded (replay)
	last []byte          // encoding at the last check
}

var watched struct {
	sync.Mutex
	vars   []*Var
	byName map[string]*Var
	any    atomic.Bool // keeps checkWrites off the hot path of sets without variables
}

// Watch registers exported variables of an observed package (from its
// generated init; their values after initialisation are the baseline).
func Watch(vars ...*Var) {
	watched.Lock()
	defer watched.Unlock()
	if watched.byName == nil {
		watched.byName = map[string]*Var{}
	}
	s := &Stream{}
	for _, v := range vars {
		watched.vars = append(watched.vars, v)
		watched.byName[v.Name] = v
		s.enc.Buf = s.enc.Buf[:0]
		s.enc.Objects = objectTable()
		v.Enc(s)
		v.last = bytes.Clone(s.enc.Buf)
	}
	watched.any.Store(len(watched.vars) > 0)
}

// snapshotVars records the current values as the baseline (end of init).
func snapshotVars() {
	watched.Lock()
	defer watched.Unlock()
	s := &Stream{}
	for _, v := range watched.vars {
		s.enc.Buf = s.enc.Buf[:0]
		s.enc.Objects = objectTable()
		v.Enc(s)
		v.last = bytes.Clone(s.enc.Buf)
	}
}

// checkWrites emits WRITE_IN for every watched variable whose value changed
// since the last check; s is about to make a top-level incall.
func checkWrites(s *Stream) {
	if watched.any.Load() { // inlined: most packages export no variables
		checkWritesLocked(s)
	}
}

func checkWritesLocked(s *Stream) {
	watched.Lock()
	defer watched.Unlock()
	if len(watched.vars) == 0 {
		return
	}
	saved := s.site
	for _, v := range watched.vars {
		s.enc.Buf = s.enc.Buf[:0]
		s.enc.Objects = objectTable()
		v.Enc(s)
		if bytes.Equal(s.enc.Buf, v.last) {
			continue
		}
		v.last = bytes.Clone(s.enc.Buf)
		s.ev = eventlog.Event{Stream: s.id, Kind: eventlog.KindWriteIn, Site: v.Name, Values: s.enc.Buf}
		rec.append(&s.ev)
		s.evSite = nil // ev no longer holds a site's strings (see emit)
	}
	s.enc.Buf = s.enc.Buf[:0]
	s.site = saved
}

// playerWriteIn performs a recorded WRITE_IN.
func (p *player) writeIn(s *Stream, e *eventlog.Event) bool {
	watched.Lock()
	v := watched.byName[e.Site]
	watched.Unlock()
	if v == nil {
		p.diverge(&Divergence{Seq: e.Seq, Stream: e.Stream, Reason: "the log sets an exported variable that this build does not have",
			Expected: p.describe(e), Actual: "no such variable"})
		return false
	}
	s.dec = value.Decoder{Buf: e.Values, Resolver: p}
	v.Dec(s)
	if s.dec.Err != nil || s.dec.Off != len(s.dec.Buf) {
		p.diverge(&Divergence{Seq: e.Seq, Stream: e.Stream, Reason: "the recorded value does not fit the variable's type (changed?)",
			Expected: p.describe(e), Actual: v.Name})
		return false
	}
	return true
}

// refreshVars takes the values observed code left in the watched variables
// as the new baseline, at the end of a top-level incall: only changes made
// between incalls are WRITE_IN.
func refreshVars() {
	if !watched.any.Load() {
		return
	}
	snapshotVars()
}
