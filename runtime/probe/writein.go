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
	last atomic.Pointer[varValue]
}

// varValue is a watched variable's value at the last check. Checks read it
// without a lock (every top-level incall checks every variable, on every
// goroutine); it is replaced, under watched's lock, only when the value
// changed.
type varValue struct {
	enc []byte // the encoding
	// sentinel is set when the variable held a registered sentinel error:
	// its encoding is the sentinel's name, which never changes, so the
	// variable is unchanged exactly while it still holds that error.
	sentinel error
}

var watched struct {
	sync.Mutex
	vars   []*Var
	byName map[string]*Var
	list   atomic.Pointer[[]*Var] // vars, for the checks (read without the lock)
	any    atomic.Bool            // keeps checkWrites off the hot path of sets without variables
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
		v.last.Store(currentValue(s, v))
	}
	list := watched.vars[:len(watched.vars):len(watched.vars)]
	watched.list.Store(&list)
	watched.any.Store(len(watched.vars) > 0)
}

// snapshotVars records the current values as the baseline (end of init).
func snapshotVars() {
	watched.Lock()
	defer watched.Unlock()
	s := &Stream{}
	for _, v := range watched.vars {
		v.last.Store(currentValue(s, v))
	}
}

// currentValue encodes v's current value with s's encoder.
func currentValue(s *Stream, v *Var) *varValue {
	_, sentinel := encodeVar(s, v, nil)
	return &varValue{enc: bytes.Clone(s.enc.Buf), sentinel: sentinel}
}

// encodeVar encodes v's current value into s.enc.Buf and reports whether it
// differs from last (always, for a nil last), and the sentinel error it
// holds, if any. A variable that still holds last's sentinel is not encoded.
func encodeVar(s *Stream, v *Var, last *varValue) (changed bool, sentinel error) {
	s.enc.Buf = s.enc.Buf[:0]
	s.enc.Objects = objectTable()
	s.varCheck = varCheck{active: true, last: last}
	v.Enc(s)
	c := s.varCheck
	s.varCheck = varCheck{}
	// The shortcuts hold only for a variable whose whole encoding is one
	// error (what the transform generates for a variable of type error).
	whole := c.errors == 1 && c.end == len(s.enc.Buf)
	if c.same {
		if whole {
			return false, last.sentinel
		}
		_, sentinel = encodeVar(s, v, nil) // encode it after all, to compare
		return !bytes.Equal(s.enc.Buf, last.enc), sentinel
	}
	if !whole {
		c.sentinel = nil
	}
	return last == nil || !bytes.Equal(s.enc.Buf, last.enc), c.sentinel
}

// varCheck is the state of a stream checking a watched variable: Error
// consults it so that a variable holding the same sentinel error as at the
// last check is not encoded again.
type varCheck struct {
	active   bool
	last     *varValue
	errors   int   // Error calls
	end      int   // length of the encoding after the last one
	same     bool  // an Error call had last.sentinel as its argument
	sentinel error // the registered sentinel error the last Error call encoded
}

// checkVarError is Error while checking a watched variable: a sentinel
// the variable held at the last check is not encoded again; otherwise it
// encodes err, noting whether it is a registered sentinel.
func (s *Stream) checkVarError(err error) {
	c := &s.varCheck
	c.errors++
	c.sentinel = nil
	start := len(s.enc.Buf)
	if c.last != nil && c.last.sentinel != nil && start == 0 && sameError(err, c.last.sentinel) {
		c.same = true
	} else {
		s.enc.EncodeError(err)
		if start == 0 && len(s.enc.Buf) > 0 && s.enc.Buf[0] == value.TagSentinel {
			c.sentinel = err
		}
	}
	c.end = len(s.enc.Buf)
}

// sameError is err == sentinel, for a sentinel of a comparable type (so ==
// cannot panic: it compares the dynamic types first).
func sameError(err, sentinel error) bool { return err == sentinel }

// checkWrites emits WRITE_IN for every watched variable whose value changed
// since the last check; s is about to make a top-level incall.
func checkWrites(s *Stream) {
	if watched.any.Load() { // inlined: most packages export no variables
		checkWritesLocked(s)
	}
}

// checkWritesLocked compares without the lock and takes it only for a
// variable that changed (to record the change once, should several streams
// see it at the same time).
func checkWritesLocked(s *Stream) {
	saved := s.site
	for _, v := range *watched.list.Load() {
		if changed, _ := encodeVar(s, v, v.last.Load()); !changed {
			continue
		}
		watched.Lock()
		last := v.last.Load()
		if changed, sentinel := encodeVar(s, v, last); changed {
			v.last.Store(&varValue{enc: bytes.Clone(s.enc.Buf), sentinel: sentinel})
			s.ev = eventlog.Event{Stream: s.id, Kind: eventlog.KindWriteIn, Site: v.Name, Values: s.enc.Buf}
			rec.append(&s.ev)
			s.evSite = nil // ev no longer holds a site's strings (see emit)
		}
		watched.Unlock()
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
// as the new baseline, at the end of s's top-level incall: only changes made
// between incalls are WRITE_IN.
func refreshVars(s *Stream) {
	if watched.any.Load() { // inlined, as checkWrites
		refreshWatched(s)
	}
}

func refreshWatched(s *Stream) {
	for _, v := range *watched.list.Load() {
		if changed, _ := encodeVar(s, v, v.last.Load()); !changed {
			continue
		}
		watched.Lock()
		if changed, sentinel := encodeVar(s, v, v.last.Load()); changed {
			v.last.Store(&varValue{enc: bytes.Clone(s.enc.Buf), sentinel: sentinel})
		}
		watched.Unlock()
	}
	s.enc.Buf = s.enc.Buf[:0]
}
