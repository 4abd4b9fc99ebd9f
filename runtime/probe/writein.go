package probe

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

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

	// Set by WatchAt: the variable itself, so that a check can tell it
	// unchanged without encoding it (the common case: every top-level
	// incall checks every watched variable).
	at   unsafe.Pointer
	typ  reflect.Type
	size uintptr // typ.Size()
	cmp  varComparison
}

// varComparison is how a check tells a watched variable unchanged before
// encoding it.
type varComparison uint8

const (
	// byEncoding: no shortcut; the encodings are compared.
	byEncoding varComparison = iota
	// bySentinel: a variable of type error (encoded by one Error call)
	// that held a registered sentinel at the last check is unchanged while
	// it still holds that sentinel (err == sentinel: a sentinel's encoding
	// is its name, which never changes).
	bySentinel
	// byMemory: a variable of a type whose encoding is a function of its
	// memory alone (plainMemory) is unchanged while its bytes equal a copy
	// taken at the last check.
	byMemory
)

// WatchAt watches v, the exported variable at p, as Watch does, and lets
// the checks compare the variable itself with its last value before
// encoding it. v.Enc must encode *p exactly as generated code does: one
// Error call for a variable of type error, the value itself otherwise.
func WatchAt[T any](v *Var, p *T) {
	v.at = unsafe.Pointer(p)
	v.typ = reflect.TypeFor[T]()
	v.size = v.typ.Size()
	switch {
	case v.typ == errorType:
		v.cmp = bySentinel
	case plainMemory(v.typ):
		v.cmp = byMemory
	}
	Watch(v)
}

var errorType = reflect.TypeFor[error]()

// plainMemory reports whether equal bytes of two values of type t mean
// equal encodings: booleans, numbers and strings (equal bytes are the same
// string data, kept alive by the copy, and strings are immutable), and
// arrays and structs of them. Not pointers, slices, maps or interfaces,
// whose encodings depend on memory elsewhere or on the object table.
func plainMemory(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return true
	case reflect.Array:
		return plainMemory(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !plainMemory(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// varValue is a watched variable's value at the last check. Checks read it
// without a lock (every top-level incall checks every variable, on every
// goroutine); it is replaced, under watched's lock, only when the value
// changed.
//
// The encoding is for comparison only: objects by address, never with
// their contents (sameness), so that an unchanged variable always encodes
// alike; the log's encoding numbers objects and gives their contents on
// first sight, and once differed from the next check's for the same
// object (TestWriteInComparesLikeWithLike).
type varValue struct {
	enc []byte // the encoding
	// pins keeps the objects enc names by address alive, so that no other
	// object can take their addresses while enc names them.
	pins []unsafe.Pointer
	// sentinel is set when the variable held a registered sentinel error:
	// its encoding is the sentinel's name, which never changes, so the
	// variable is unchanged exactly while it still holds that error.
	sentinel error
	// mem is a copy of the memory of a variable compared byMemory (a value
	// of its type, so that it keeps its strings alive), taken with enc; nil
	// when the variable was written while it was encoded.
	mem unsafe.Pointer
}

// unchanged reports whether v certainly still holds its value at the last
// check, without encoding it. False means only that it must be encoded.
// (Small enough to be inlined into the checks' loops.)
func (v *Var) unchanged(last *varValue) bool {
	if v.cmp == bySentinel {
		return last.sentinel != nil && *(*error)(v.at) == last.sentinel
	}
	return v.cmp == byMemory && last.mem != nil && sameMemory(v.at, last.mem, v.size)
}

func sameMemory(a, b unsafe.Pointer, n uintptr) bool {
	return n == 0 || bytes.Equal(unsafe.Slice((*byte)(a), n), unsafe.Slice((*byte)(b), n))
}

// current takes v's value now, for comparison with last (nil: none yet):
// whether its encoding differs, and the value to keep as the new baseline
// (nil: keep last). s.enc.Buf holds the encoding if it changed.
func (v *Var) current(s *Stream, last *varValue) (next *varValue, changed bool) {
	var mem unsafe.Pointer
	if v.cmp == byMemory {
		c := reflect.New(v.typ)
		c.Elem().Set(reflect.NewAt(v.typ, v.at).Elem())
		mem = c.UnsafePointer()
	}
	changed, sentinel := encodeVar(s, v, last)
	if mem != nil && !sameMemory(v.at, mem, v.size) {
		mem = nil // written meanwhile: mem may not be what enc encodes
	}
	switch {
	case changed:
		return &varValue{enc: bytes.Clone(s.enc.Buf), pins: slices.Clone(s.same.pins), sentinel: sentinel, mem: mem}, true
	case mem != nil && (last.mem == nil || !sameMemory(mem, last.mem, v.size)):
		// The same encoding in other memory (an equal string elsewhere):
		// the checks compare with this memory from now on.
		return &varValue{enc: last.enc, pins: last.pins, sentinel: last.sentinel, mem: mem}, false
	}
	return nil, false
}

var watched struct {
	sync.Mutex
	vars     []*Var
	byName   map[string]*Var
	reserved int                    // vars whose objects have their IDs (reserveVarObjects)
	list     atomic.Pointer[[]*Var] // vars, for the checks (read without the lock)
	any      atomic.Bool            // keeps checkWrites off the hot path of sets without variables
}

// Watch registers exported variables of an observed package (from a
// variable initialiser of its generated file, so before any init function;
// EndInit takes their values after initialisation as the baseline).
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
		next, _ := v.current(s, nil) // a baseline already; comparing numbers nothing
		v.last.Store(next)
	}
	list := watched.vars[:len(watched.vars):len(watched.vars)]
	watched.list.Store(&list)
	watched.any.Store(len(watched.vars) > 0)
	if len(watched.vars) > 0 {
		entryChecks.Or(entryVars)
	}
}

// snapshotVars records the current values as the baseline (end of init).
func snapshotVars() {
	watched.Lock()
	defer watched.Unlock()
	s := &Stream{}
	reserveVarObjects(s)
	for _, v := range watched.vars {
		next, _ := v.current(s, nil)
		v.last.Store(next)
	}
}

// varIDs is the first of the object IDs that reserveVarObjects gives, far
// above the numbers objects get as they cross the boundary.
const varIDs = 1 << 32

// reserveVarObjects gives the object each newly watched variable refers to
// after initialisation (pflag's CommandLine, a *FlagSet) an ID of its own,
// in capture and in replay alike, so that an event naming it (a test
// calling pflag.CommandLine.Parse) finds replay's own object. The IDs come
// from a range of their own, one per variable in registration order, so
// that they do not depend on what else either process numbered during
// initialisation (in-package test files may define flags on CommandLine in
// capture, and the replay harness links no test files). Only variables of
// pointer, function and channel types: the first object their encoding
// names is the variable's own value.
func reserveVarObjects(s *Stream) {
	for _, v := range watched.vars[watched.reserved:] {
		id := uint64(varIDs + watched.reserved)
		watched.reserved++
		var first firstObject
		s.enc.Buf = s.enc.Buf[:0]
		s.objs = &first
		v.Enc(s)
		s.objs = nil
		if !first.top.IsValid() {
			continue
		}
		if replaying {
			play.reserve(id, first.top, first.name)
		} else {
			captureObjects.reserve(id, first.top, first.weak)
		}
	}
	s.enc.Buf = s.enc.Buf[:0]
}

// firstObject remembers the object a variable's encoding starts with.
type firstObject struct {
	top  reflect.Value
	name string
	weak bool
	seen bool
}

func (o *firstObject) ID(v reflect.Value, name string, weak bool) (uint64, bool, string) {
	if !o.seen {
		o.seen = true
		switch v.Kind() {
		case reflect.Pointer, reflect.Func, reflect.Chan:
			o.top, o.name, o.weak = v, name, weak
		}
	}
	return 0, false, name
}

func (o *firstObject) Recorded(unsafe.Pointer) (string, []byte, bool) { return "", nil, false }

// sameness is the object table of the comparisons: it numbers nothing and
// gives no contents, so comparing never changes what the log will hold.
type sameness struct {
	pins []unsafe.Pointer
}

func (o *sameness) ID(v reflect.Value, name string, _ bool) (uint64, bool, string) {
	p := v.UnsafePointer()
	o.pins = append(o.pins, p)
	return uint64(uintptr(p)), false, name
}

func (o *sameness) Recorded(unsafe.Pointer) (string, []byte, bool) { return "", nil, false }

// encodeVar encodes v's current value for comparison (sameness, the
// objects it names in s.same.pins) into s.enc.Buf and reports whether it
// differs from last (always, for a nil last), and the sentinel error it
// holds, if any. A variable that still holds last's sentinel is not encoded.
func encodeVar(s *Stream, v *Var, last *varValue) (changed bool, sentinel error) {
	s.enc.Buf = s.enc.Buf[:0]
	s.same.pins = s.same.pins[:0]
	s.objs = &s.same
	s.varCheck = varCheck{active: true, last: last}
	v.Enc(s)
	c := s.varCheck
	s.varCheck = varCheck{}
	s.objs = nil
	s.enc.Objects = objectTable()
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
	alone := enterFields(s)
	if entryChecks.Load() != 0 { // most packages export no variables
		checkWritesSlow(s, alone)
	}
}

// entryChecks says what checkWrites has to check: entryVars (a watched
// variable) and entryFields (a watched object, writefields.go). One load
// for both on the path of every top-level incall.
var entryChecks atomic.Uint32

const (
	entryVars uint32 = 1 << iota
	entryFields
)

// alone: no other top-level incall is in progress (enterFields).
func checkWritesSlow(s *Stream, alone bool) {
	if watched.any.Load() {
		checkWritesLocked(s)
	}
	if alone && watchedFields.any.Load() {
		checkFieldsSlow(s, true)
	}
	if alone && watchedSlices.any.Load() {
		checkSlices(s) // slices incalls returned (slicewatch.go)
	}
}

// checkWritesLocked compares without the lock and takes it only for a
// variable that changed (to record the change once, should several streams
// see it at the same time).
func checkWritesLocked(s *Stream) {
	saved := s.site
	for _, v := range *watched.list.Load() {
		if last := v.last.Load(); v.unchanged(last) || !maybeChanged(s, v, last) {
			continue
		}
		watched.Lock()
		if next, changed := v.current(s, v.last.Load()); next != nil {
			v.last.Store(next)
			if changed {
				s.enc.Buf = s.enc.Buf[:0]
				s.enc.Outgoing = false // external code's value enters the set
				v.Enc(s)               // numbered, with the contents of objects the log has not seen
				s.ev = eventlog.Event{Stream: s.id, Kind: eventlog.KindWriteIn, Site: v.Name, Values: s.enc.Buf}
				s.append()
				s.evSite = nil // ev no longer holds a site's strings (see emit)
			}
		}
		watched.Unlock()
	}
	s.enc.Buf = s.enc.Buf[:0]
	s.site = saved
}

// maybeChanged is the check without the lock of v, not unchanged since
// last: false if it still encodes as last; true if it must be taken again
// under the lock (its encoding differs, or for a variable compared by
// memory, its memory).
func maybeChanged(s *Stream, v *Var, last *varValue) bool {
	changed, _ := encodeVar(s, v, last)
	return changed || v.cmp == byMemory
}

// playerWriteIn performs a recorded WRITE_IN.
func (p *player) writeIn(s *Stream, e *eventlog.Event) bool {
	if e.RecvID != 0 {
		return p.writeField(s, e) // a field of an observed object (writefields.go)
	}
	if strings.HasPrefix(e.Site, sliceWritePrefix) {
		return p.writeSlice(s, e) // a slice an incall returned (slicewatch.go)
	}
	watched.Lock()
	v := watched.byName[e.Site]
	watched.Unlock()
	if v == nil {
		p.diverge(&Divergence{Seq: e.Seq, Stream: e.Stream, Reason: "the log sets an exported variable that this build does not have",
			Expected: p.describe(e), Actual: "no such variable"})
		return false
	}
	s.dec = value.Decoder{Buf: e.Values}
	s.res = performed{p}
	v.Dec(s)
	s.res = nil
	if s.dec.Err != nil || s.dec.Off != len(s.dec.Buf) {
		actual := v.Name
		if s.dec.Err != nil {
			actual += ": " + s.dec.Err.Error()
		}
		p.diverge(&Divergence{Seq: e.Seq, Stream: e.Stream, Reason: "the recorded value does not fit the variable's type (changed?)",
			Expected: p.describe(e), Actual: actual})
		return false
	}
	return true
}

// performed resolves the objects of a value the player writes and the
// replayed code does not encode again (a WRITE_IN): an object it creates
// from the log's contents is not fresh, since the log's next mention of it
// is a bare reference (pflag's ResetForTesting points CommandLine at a
// new FlagSet, and the test's next incall on it was re-encoded with its
// contents: "different arguments"; corpus pkgvars' TestReset).
type performed struct{ *player }

func (r performed) Bind(id uint64, v reflect.Value, name string) {
	r.objMu.Lock()
	defer r.objMu.Unlock()
	r.bindLocked(id, v, name)
}

// refreshVars takes the values observed code left in the watched variables
// as the new baseline, at the end of s's top-level incall: only changes made
// between incalls are WRITE_IN.
func refreshVars(s *Stream) {
	if watched.any.Load() && !initializing.Load() { // inlined, as checkWrites; no baseline before EndInit
		refreshWatched(s)
	}
}

func refreshWatched(s *Stream) {
	for _, v := range *watched.list.Load() {
		if last := v.last.Load(); v.unchanged(last) || !maybeChanged(s, v, last) {
			continue
		}
		watched.Lock()
		if next, _ := v.current(s, v.last.Load()); next != nil {
			v.last.Store(next)
		}
		watched.Unlock()
	}
	s.enc.Buf = s.enc.Buf[:0]
}
