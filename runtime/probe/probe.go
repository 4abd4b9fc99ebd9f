// Package probe is the API that instrumented code calls: the only package of
// rules_capture that generated code imports. It keeps, per goroutine, the
// stream of boundary events, and hands each event to the recorder (capture)
// or the player (replay).
//
// The generated code for an exported function of the observed set looks like
//
//	func Add(p0 int, p1 int) int {
//		call := _capture_Add // the original function, renamed
//		if probe.On() {
//			call = _capture_in_0
//		}
//		return call(p0, p1)
//	}
//
//	func _capture_in_0(p0 int, p1 int) int {
//		s := probe.In(&_capture_site_0)
//		if s == nil { // called from observed code
//			return _capture_Add(p0, p1)
//		}
//		s.Int(int64(p0))
//		s.Int(int64(p1))
//		f := s.Call()
//		var r0 int
//		s.Run(f, func() { r0 = _capture_Add(p0, p1) })
//		s.Int(int64(r0))
//		s.Return(f)
//		return r0
//	}
//
// Add is small enough for the compiler to inline into its callers, so with
// capture off a call costs one load, one predictable branch and the call of
// the original function (through a function value: a second direct call
// would exceed the inlining budget).
//
// and an outcall goes through a helper generated per call site that records
// the call and its results (capture) or answers it from the log (replay).
package probe

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// enabled is true while capture or replay is active. With capture switched
// off (CAPTURE=off) every probe costs this one predictable branch. Atomic
// (a plain load on amd64 and arm64's load-acquire) because Close switches
// it off while goroutines of observed code may still run or have run
// without synchronising with the goroutine that exits (a race the detector
// reported in race-enabled captures of golang-lru's expirable reaper
// shape; TestCloseWhileObservedGoroutinesRun).
var enabled atomic.Bool

// replaying is true in a replay harness.
var replaying bool

// A Site is one probe location: an exported function or method of the
// observed set (incall), or a call site of external code (outcall).
type Site struct {
	Name string // e.g. "example.com/calc.Add", "(*example.com/calc.Acc).Add", "time.Now"
	Pos  string // original source position, "calc/add.go:12"

	// Invoke performs the incall in replay: it decodes the arguments (and
	// receiver) from s and calls the exported function. Incall sites only.
	Invoke func(s *Stream)

	// Exit marks outcalls that end the process (os.Exit, log.Fatal): the
	// log is closed before the call.
	Exit bool
}

// frame is an open boundary call of a stream.
type frame struct {
	seq    uint64 // of its CALL_* event (the log's Seq in replay)
	site   *Site
	kind   eventlog.Kind // KindCallIn or KindCallOut
	inside bool          // the stream's inside flag before the call
}

// A Stream is the boundary state of one logical goroutine.
//
// The fields every capture event touches come first, so that they share
// as few cache lines as possible: in a server the stream is cold at every
// boundary crossing (the goroutine ran the program's own code since), and
// each line is a miss (lab/demo/shop_profile.sh). Replay's and the rarer
// cases' fields follow.
type Stream struct {
	id       uint32
	inside   bool          // executing observed code
	kind     eventlog.Kind // KindCallIn or KindCallOut: the call being built
	inFields bool          // counted in fieldIncalls (writefields.go)
	// idleCall: the stream's top-level incall runs outside a sampled
	// window (sample.go): counted for quiescent points, nothing encoded
	// or recorded.
	idleCall bool

	// Capture: the order of channel crossings (crossed.go). ordered sends
	// the stream's next append through appendOrdered: it numbered channels
	// (pendingChans), or holds chanOrder.mu (chanHeld) while a channel
	// operation decides which channels crossed.
	ordered  bool
	chanHeld bool

	frames   []frame
	site     *Site // of the event being built
	evSite   *Site // whose Name and Pos ev holds
	recvType string
	recvID   uint64
	origin   uint64         // the Parent of a top-level callback CALL_IN (callback.go)
	objs     value.Objects  // if set, the object table of Encode and Error (writein.go's comparisons)
	enc      value.Encoder  // values of the event being built
	ev       eventlog.Event // the event emitted
	chain    panicChain     // the panic unwinding through the stream's boundary frames (panics.go)

	// Callbacks (callback.go): the function values the outcall being built
	// passes (capture: their wrappers' cells for the CALL_OUT's Seq;
	// replay: the values).
	passedCells []*atomic.Uint64
	passedFuncs []reflect.Value

	// keptSeen: the owned addresses the outcall being built got, whose
	// pointees its RETURN_OUT records, for KeptBy (kept.go).
	keptSeen []*keptAddr

	// Replay: addresses of functions from outside that the call being
	// built passes and that replay has not matched to the capture's yet
	// (codepc.go).
	codePCs []pendingPC

	varCheck varCheck   // checking a watched variable (writein.go)
	pins     objectPins // capture: the objects the outermost call has numbered so far (pins.go)

	dec    value.Decoder // replay: values being read (args of a driven incall, results of an answered outcall)
	replay *streamReplay

	chans        uint64 // the select being built: cases whose channel crossed the boundary (chan.go)
	pendingChans []uintptr

	turn    *chanTurns // capture: the channel whose lock the receive at a turn site holds (chanturn.go)
	turnNum uint64     // replay: the number of that channel in the log

	fieldsEntry uint64           // fieldIncalls after s's top-level incall was counted
	heldObjs    []*watchedObject // the watched objects s's top-level incall received (enterObjects)
	heldSaved   []byte           // enterObjects: the CALL_IN's values while it records WRITE_INs

	// handoff orders, for the race detector only, the stream's use by a
	// goroutine that ended before another goroutine reusing its g found the
	// stream (streams.go). The runtime orders the two (a g is reused only
	// after its goroutine exits), but the detector does not see that edge:
	// an idle stream releases here and current acquires.
	handoff atomic.Uint32

	turnObjs turnObjects    // replay's numbering of new objects at their event's turn (numbering.go)
	same     sameness       // the object table of s's comparisons of watched variables
	res      value.Resolver // if set, the resolver of Decode and DecodeError (writein.go's performed WRITE_IN)
}

// idle marks the end of a stream's outermost call (see handoff).
func (s *Stream) idle() {
	if len(s.frames) != 0 {
		return
	}
	if s.pins.n != 0 {
		s.pins.clear()
	}
	s.pins.orphan = false
	if raceEnabled {
		s.handoff.Store(1)
	}
}

// On reports whether capture (or replay) is on. It is what an incall costs
// while capture is off: generated wrappers call it, inlined, and go to the
// original function when it is false.
func On() bool { return enabled.Load() }

// In starts an incall at site: nil if capture is off or the caller is
// observed code (a call inside the observed set is not a boundary event).
func In(site *Site) *Stream {
	if !enabled.Load() {
		return nil
	}
	return in(site)
}

func in(site *Site) *Stream {
	s := current()
	if s.inside && !initIncall(s) || s.enc.CallingMethods() {
		// Inside observed code, or the probe encoding a value runs its
		// methods (an observed error's Error): not a boundary call.
		return nil
	}
	if smpOn && len(s.frames) == 0 && sampleBegins(s) {
		return s // outside a sampled window (sample.go): counted, not recorded
	}
	if len(s.frames) == 0 && !replaying && !initializing.Load() {
		checkWrites(s)                                       // exported variables and fields of observed objects
		s.pins.noting, s.pins.noted = true, s.pins.noted[:0] // the objects it receives (enterObjects)
	} else if !replaying && len(s.frames) != 0 {
		if !fieldsCallbacks.Load() {
			// External code calls observed code back inside an outcall
			// (goldmark's inline parsers call the parser's Context methods
			// through an interface): from this incall's return on, what it
			// writes during outcalls is checked, as after an observed
			// function value was handed out (writefields.go). Not now: the
			// shadow is what observed code left when the top-level incall
			// began, not at this outcall.
			fieldsCallbacks.Store(true)
		} else if nestedFieldsOn() {
			checkNestedFields(s) // external code's writes during the outcall (writefields.go)
		}
	}
	s.begin(site, eventlog.KindCallIn)
	return s
}

// Out starts an outcall at site: nil if capture is off or the calling
// goroutine is not executing observed code (code shared by observed and
// external callers).
func Out(site *Site) *Stream {
	if !enabled.Load() || smpIdle.Load() { // outside a sampled window nothing is recorded
		return nil
	}
	return out(site)
}

func out(site *Site) *Stream {
	s := current()
	if s.enc.CallingMethods() {
		// Observed code the probe's encoding runs (an error's Error)
		// calling outside: the event being built is not this one's.
		return nil
	}
	if replaying && s.id == 0 && len(s.frames) == 0 && initializing.Load() {
		play.performInitIncalls(s, site) // test files' initialisers (testinit.go)
	}
	// Outside observed code with no frame open (not the initialising
	// goroutine), the caller is orphan code: a function value of the
	// observed set that external code called (a returned handler). Its
	// outcall is recorded in the goroutine's stream without marking the
	// goroutine as running observed code: the probe cannot see the orphan
	// code return to its caller, and a mark left set would hide that
	// caller's later incalls on the same goroutine
	// (TestIncallAfterOrphanOutcallOnSameGoroutine).
	if !s.inside && !replaying {
		if s.id == 0 || len(s.frames) != 0 {
			return nil
		}
		// Replay skips its events: the objects they number are not watched
		// (TestOrphanBornObjectWatchedOnlyOnceAnIncallNamesIt); idle ends
		// this when the outcall returns.
		s.pins.orphan = true
	}
	s.begin(site, eventlog.KindCallOut)
	return s
}

func (s *Stream) begin(site *Site, kind eventlog.Kind) {
	s.site = site
	s.kind = kind
	s.recvType = ""
	s.recvID = 0
	s.enc.Buf = s.enc.Buf[:0]
	s.codePCs = s.codePCs[:0]
	switch kind {
	case eventlog.KindCallOut:
		s.enc.Outgoing = !leaveWhole // its receiver and arguments leave
	case eventlog.KindCallIn:
		s.enc.Outgoing = false // its receiver and arguments enter
	default:
		// An event inside a frame (GO, a turn): the values appended after
		// it are the frame's return values (corpus reaper: New's GO, then
		// its RETURN_IN).
		s.enc.Outgoing = outgoingAfter(s.frames)
	}
}

// leaveWhole: observed objects leaving the set are encoded with their whole
// contents on first sight, as logs of format 2 and before hold them (set by
// replay of such a log, before any stream runs); otherwise with their
// exported fields only (value.Encoder.Outgoing;
// TestObjectLeavingCarriesExportedFieldsOnly).
var leaveWhole bool

// outgoingAfter reports whether the values appended next on a stream whose
// innermost open frame is the last of frames leave the set: that frame's
// return values, which leave an incall (RETURN_IN) and enter from an
// outcall (RETURN_OUT).
func outgoingAfter(frames []frame) bool {
	return len(frames) > 0 && frames[len(frames)-1].kind == eventlog.KindCallIn && !leaveWhole
}

// Reading marks the values appended next as a read's (READ_OUT): the value
// of an external variable or field enters the set.
func (s *Stream) Reading() { s.enc.Outgoing = false }

// Replaying reports whether outcalls are answered from the log.
func (s *Stream) Replaying() bool { return replaying }

// Int appends a signed integer value.
func (s *Stream) Int(v int64) { s.enc.Buf = value.AppendInt(s.enc.Buf, v) }

// Uint appends an unsigned integer value.
func (s *Stream) Uint(v uint64) { s.enc.Buf = value.AppendUint(s.enc.Buf, v) }

// Float appends a float value.
func (s *Stream) Float(v float64) { s.enc.Buf = value.AppendFloat(s.enc.Buf, v) }

// Bool appends a boolean value.
func (s *Stream) Bool(v bool) { s.enc.Buf = value.AppendBool(s.enc.Buf, v) }

// String appends a string value.
func (s *Stream) String(v string) {
	if !s.idleCall {
		s.enc.String(v)
	}
}

// Bytes appends a byte slice value.
func (s *Stream) Bytes(v []byte) {
	if !s.idleCall {
		s.bytesView(v)
	}
}

// Error appends an error value (chain, sentinels, registered types).
func (s *Stream) Error(err error) {
	if s.idleCall {
		return
	}
	s.enc.Objects = s.objectTable()
	if s.varCheck.active {
		s.checkVarError(err)
		return
	}
	s.enc.EncodeError(err)
}

// Encode appends v, of static type T, by reflection.
func Encode[T any](s *Stream, v T) {
	if s.idleCall {
		return
	}
	s.enc.Objects = s.objectTable()
	value.Encode(&s.enc, v)
}

func (s *Stream) objectTable() value.Objects {
	if s.objs != nil {
		return s.objs
	}
	return s.turnTable()
}

// Recv appends the receiver of a method call, of static type T, and notes
// its dynamic type and object ID for the event's receiver columns.
func Recv[T any](s *Stream, v T) {
	if s.idleCall {
		return
	}
	s.enc.Objects = s.turnTable()
	start := len(s.enc.Buf)
	s.recvType = value.EncodeRecv(&s.enc, v) // the dynamic type's name
	// The ID was assigned by the encoding just written.
	if name, id, ok := value.RefOfKnown(s.enc.Buf[start:], s.recvType); ok {
		s.recvType, s.recvID = name, id
	}
}

// Call emits the CALL_IN or CALL_OUT event of the call begun by In or Out
// and returns its frame index for Return and Recover.
func (s *Stream) Call() int {
	s.keptSeen = s.keptSeen[:0]
	if s.idleCall {
		return s.callIdle() // sample.go
	}
	kind := s.kind
	var seq uint64
	if replaying {
		seq = playerCall(s, kind)
	} else {
		parent := s.parent()
		if parent == 0 && kind == eventlog.KindCallIn {
			parent = s.origin // a callback on external code's goroutine: the CALL_OUT that passed it
		}
		s.origin = 0
		if s.pins.noting {
			s.pins.noting = false
			if kind == eventlog.KindCallIn && s.inFields && len(s.frames) == 0 && watchedFields.any.Load() {
				enterObjects(s) // watched objects it receives (writefields.go)
			}
		}
		if ckptOn && kind == eventlog.KindCallIn && len(s.frames) == 0 && !smpOn { // sampling counted it in sampleBegins
			incallBegins()
		}
		seq = s.emit(kind, parent)
		if kind == eventlog.KindCallOut && nestedFieldsOn() {
			syncNestedFields(s) // what observed code left (writefields.go)
		}
		for _, c := range s.passedCells {
			c.Store(seq)
		}
		s.passedCells = s.passedCells[:0]
	}
	s.frames = append(s.frames, frame{seq: seq, site: s.site, kind: kind, inside: s.inside})
	s.inside = kind == eventlog.KindCallIn
	s.enc.Buf = s.enc.Buf[:0]
	s.enc.Outgoing = outgoingAfter(s.frames) // the results to come
	return len(s.frames) - 1
}

func (s *Stream) parent() uint64 {
	if n := len(s.frames); n > 0 {
		return s.frames[n-1].seq
	}
	return 0
}

// Return emits the RETURN_IN or RETURN_OUT event of frame f with the values
// appended since Call.
func (s *Stream) Return(f int) {
	s.keptSeen = s.keptSeen[:0]
	if s.idleCall {
		s.returnIdle(f, true) // sample.go
		return
	}
	if replaying || f >= len(s.frames) {
		s.returnSlow(f)
		return
	}
	// s.close and s.emitFor, inlined by hand for the common case (a
	// capture, the frame still open): this runs once per boundary call.
	fr := &s.frames[f]
	seq, site, call := fr.seq, fr.site, fr.kind
	s.inside = fr.inside
	s.frames = s.frames[:f]
	s.enc.Outgoing = outgoingAfter(s.frames)
	if s.chain.levels != 0 && f < s.chain.frame {
		s.chain.reset() // the panic was recovered inside frame f
	}
	if site != nil {
		s.site = site
	}
	if len(s.recvType) != 0 {
		s.recvType = ""
	}
	s.recvID = 0
	if call == eventlog.KindCallIn {
		s.emit(eventlog.KindReturnIn, seq)
		if f == 0 {
			refreshVars(s)
			refreshFields(s)
			if ckptOn {
				incallEnds(s, true)
			}
		} else if nestedFieldsOn() {
			syncNestedFields(s) // back to external code inside the outcall
		}
	} else {
		s.emit(eventlog.KindReturnOut, seq)
	}
	s.enc.Buf = s.enc.Buf[:0]
	s.idle()
}

// returnSlow is Return in replay, or for a frame already closed.
func (s *Stream) returnSlow(f int) {
	fr := s.close(f)
	if s.chain.levels != 0 && f < s.chain.frame {
		s.chain.reset()
	}
	if replaying {
		playerReturn(s, fr)
	} else {
		s.emitFor(fr, returnKind(fr.kind))
		if len(s.frames) == 0 && fr.kind == eventlog.KindCallIn {
			refreshVars(s)
			refreshFields(s)
			if ckptOn {
				incallEnds(s, true)
			}
		} else if fr.kind == eventlog.KindCallIn && nestedFieldsOn() {
			syncNestedFields(s)
		}
	}
	s.enc.Buf = s.enc.Buf[:0]
	s.idle()
}

func returnKind(call eventlog.Kind) eventlog.Kind {
	if call == eventlog.KindCallIn {
		return eventlog.KindReturnIn
	}
	return eventlog.KindReturnOut
}

// close pops frame f (and any frame above it left open by runtime.Goexit)
// and restores the stream's inside flag.
func (s *Stream) close(f int) frame {
	if f >= len(s.frames) {
		return frame{}
	}
	fr := s.frames[f]
	s.frames = s.frames[:f]
	s.inside = fr.inside
	s.enc.Outgoing = outgoingAfter(s.frames)
	return fr
}

func shortPos(file string, line int) string {
	// Keep the last two path elements: positions must not depend on where
	// the source was checked out.
	if i := strings.LastIndexByte(file, '/'); i >= 0 {
		if j := strings.LastIndexByte(file[:i], '/'); j >= 0 {
			file = file[j+1:]
		}
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// emit writes an event of the site being built (capture).
func (s *Stream) emit(kind eventlog.Kind, parent uint64) uint64 {
	// Field by field: a composite literal is built in a temporary and
	// copied, which costs more than the rest of this function (the copy's
	// wide loads stall on the narrow stores that built it).
	// The site's strings are copied only when the site changes (a call's
	// events share it): each string store costs a load and a write barrier
	// check. Seq is left to Writer.Append, which assigns it.
	e := &s.ev
	e.Stream = s.id
	e.Kind = kind
	e.Parent = parent
	site := s.site
	if s.evSite != site {
		s.evSite = site
		e.Site = site.Name
		e.Pos = site.Pos
	}
	if len(s.recvType)|len(e.RecvType) != 0 {
		e.RecvType = s.recvType
	}
	e.RecvID = s.recvID
	e.Values = s.enc.Buf
	if site.Exit {
		return s.emitExit(kind)
	}
	if sink != nil || s.ordered || smpIdle.Load() {
		return s.emitSlow()
	}
	// A closed writer ignores the event (Append returns 0), so the hot path
	// need not check rec.closed first.
	return rec.w.Append(e)
}

// emitSlow appends s.ev to a sink, or in the order of channel crossings.
func (s *Stream) emitSlow() uint64 {
	e := &s.ev
	if s.ordered {
		return s.appendOrdered(func() uint64 {
			if smpIdle.Load() {
				return 0 // between sampled windows (sample.go)
			}
			if sink != nil {
				e.Seq = 0
				return sink(e)
			}
			return rec.w.Append(e)
		})
	}
	if smpIdle.Load() {
		return 0 // between sampled windows (sample.go)
	}
	e.Seq = 0
	return sink(e)
}

// emitExit records an event of a site that ends the process (os.Exit,
// log.Fatal): its CALL_OUT closes the log.
func (s *Stream) emitExit(kind eventlog.Kind) uint64 {
	s.ev.Seq = 0
	seq := s.append()
	if kind == eventlog.KindCallOut {
		closeLog()
	}
	return seq
}

// append appends s.ev through rec.append, in the order of channel
// crossings if s numbered a channel or decides on crossed ones.
func (s *Stream) append() uint64 {
	if s.ordered {
		return s.appendOrdered(func() uint64 { return rec.append(&s.ev) })
	}
	return rec.append(&s.ev)
}

func (s *Stream) emitFor(fr frame, kind eventlog.Kind) {
	if fr.site != nil {
		s.site = fr.site
	}
	s.recvType, s.recvID = "", 0
	s.emit(kind, fr.seq)
}

// Decoder returns the decoder of the values being read in replay: the
// arguments of a driven incall or the results of an answered outcall.
func (s *Stream) Decoder() *value.Decoder { return &s.dec }

// Decode reads the next replayed value as a T.
func Decode[T any](s *Stream) T {
	s.dec.Resolver = s.resolver()
	v := value.Decode[T](&s.dec)
	if held.n.Load() != 0 && s.dec.Err == nil {
		if k := reflect.TypeFor[T]().Kind(); k == reflect.Struct || k == reflect.Array {
			held.share(reflect.ValueOf(&v).Elem()) // a copy of a value an incall returned (heldresults.go)
		}
	}
	return v
}

// DecodeInt reads the next replayed signed integer.
func (s *Stream) DecodeInt() int64 { return s.dec.Int() }

// DecodeUint reads the next replayed unsigned integer.
func (s *Stream) DecodeUint() uint64 { return s.dec.Uint() }

// DecodeFloat reads the next replayed float.
func (s *Stream) DecodeFloat() float64 { return s.dec.Float() }

// DecodeBool reads the next replayed boolean.
func (s *Stream) DecodeBool() bool { return s.dec.Bool() }

// DecodeString reads the next replayed string.
func (s *Stream) DecodeString() string {
	if s.dec.NextRedacted() {
		s.dec.Where = s.where()
	}
	return s.dec.String()
}

// DecodeBytes reads the next replayed byte slice.
func (s *Stream) DecodeBytes() []byte {
	s.dec.Resolver = s.resolver()
	if s.dec.NextRedacted() {
		s.dec.Where = s.where()
	}
	return s.dec.Bytes()
}

// DecodeError reads the next replayed error.
func (s *Stream) DecodeError() error {
	s.dec.Resolver = s.resolver()
	return s.dec.DecodeError()
}

func (s *Stream) resolver() value.Resolver {
	if s.res != nil {
		return s.res
	}
	return resolver()
}

// Answer, in replay, reads the recorded outcome of outcall frame f: the
// results, read next with the Decode methods, or the recorded panic, raised
// again here.
func (s *Stream) Answer(f int) { playerAnswer(s, f) }

// Done ends outcall frame f after its results were read in replay.
func (s *Stream) Done(f int) {
	s.keptSeen = s.keptSeen[:0]
	fr := s.close(f)
	playerDone(s, fr)
}

// Observed reports whether x's dynamic type belongs to the observed set,
// so that an interface method call on it is a call inside the set, not an
// outcall.
func Observed(x any) bool {
	if x == nil {
		return false
	}
	t := reflect.TypeOf(x)
	if t.Kind() == reflect.Pointer && t.Name() == "" {
		t = t.Elem()
	}
	return value.IsObservedType(t)
}

// ptrOf is the data word of an interface, used as an identity key.
func ptrOf(x any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1]
}

var _ = ptrOf

func warnf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "rules_capture: "+format+"\n", args...)
}

// Read emits the READ_OUT event of a read of another package's variable
// (capture), or matches it and makes its value the next to decode (replay).
func (s *Stream) Read() {
	if replaying {
		playerRead(s)
		return
	}
	s.emit(eventlog.KindReadOut, s.parent())
	s.enc.Buf = s.enc.Buf[:0]
	// A compound assignment's write (WRITE_OUT) follows its read.
	s.enc.Outgoing = s.kind == eventlog.KindCallOut && !leaveWhole
}

// ReadDone checks, in replay, that the recorded value fitted the variable.
func (s *Stream) ReadDone() {
	playerDone(s, frame{site: s.site})
}

// observedFuncs maps code pointers to whether they are functions of the
// observed set. A sync.Map: read on every function value that crosses,
// written once per function, and read without a lock (a read lock's two
// atomic updates of one shared word per call cost more than the lookup when
// two CPUs run probes).
var observedFuncs sync.Map // uintptr -> bool

// ObservedFunc reports whether the function value f is code of the observed
// set (a closure, method value or function of an observed package): calling
// it is a call inside the set, calling anything else is an outcall.
func ObservedFunc(f any) bool {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Func || v.IsNil() {
		return false
	}
	pc := v.Pointer()
	if pc == makeFuncCode() && isReturnedWrapper(v) {
		return true // a result's recording wrapper (returned.go)
	}
	return ObservedPC(pc)
}

// ObservedPC reports whether pc is in code of the observed set (a function
// or closure of an observed package, not of its _test.go files). The
// observed code's `runtime.FuncForPC(pc)` on such a pc runs natively: the
// address differs between the capture's binary and replay's, the function
// it names does not (toml's stateFn.String names its lexer state with
// `runtime.FuncForPC(reflect.ValueOf(s).Pointer()).Name()`).
func ObservedPC(pc uintptr) bool {
	if obs, ok := observedFuncs.Load(pc); ok {
		return obs.(bool)
	}
	obs := observedCodeAt(pc)
	observedFuncs.Store(pc, obs)
	return obs
}

// observedCodeAt is ObservedPC without the cache.
func observedCodeAt(pc uintptr) bool {
	fn := runtime.FuncForPC(pc)
	if fn == nil {
		return false
	}
	sym := fn.Name()
	pkg := funcPackage(sym)
	if !value.IsObservedPackage(pkg) {
		return false
	}
	// Code of an observed package's _test.go files is test code.
	file, _ := fn.FileLine(pc)
	if file != "<autogenerated>" {
		return !strings.HasSuffix(file, "_test.go")
	}
	// A wrapper the compiler made for a method (a method value's
	// pkg.T.M-fm, a pointer receiver's pkg.(*T).M) has no file of its own:
	// it is the observed set's when its type is, not a type of the tests
	// (go-cmp's TestNameOf passes (*myType).valueMethod, myType declared
	// in func_test.go). A test's function is a stand-in in replay, so
	// taking it for observed code would decide differently there.
	recv, _, ok := strings.Cut(strings.TrimPrefix(sym[len(pkg):], "."), ".")
	if !ok {
		return false
	}
	// pkg.(*T).M: the type is inside the parentheses. A generic type's
	// symbol spells its arguments [...], whose first dot ends recv at
	// "G[", which IsOwnTypeName takes for an instantiation.
	recv = strings.TrimSuffix(strings.TrimPrefix(recv, "(*"), ")")
	return value.IsOwnTypeName(pkg, recv)
}

// funcPackage returns the import path in a symbol name such as
// "example.com/a/b.(*T).M-fm" or "example.com/a/b.F.func1".
func funcPackage(sym string) string {
	slash := strings.LastIndexByte(sym, '/')
	dot := strings.IndexByte(sym[slash+1:], '.')
	if dot < 0 {
		return sym
	}
	return sym[:slash+1+dot]
}
