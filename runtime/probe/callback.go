package probe

import (
	"fmt"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Callbacks: function values of the observed set (closures, method values,
// functions) that observed code hands to external code, which calls them
// back — during the outcall (sort, strings.Map, a visitor) or later, on
// another goroutine (an http.HandlerFunc). Exported functions and methods
// record their own incalls; a function value has no probe of its own, so
// the outcall helper passes external code a wrapper that records each call
// as a CALL_IN of the site "callback <function>", whose receiver columns
// carry the closure's object ID. Replay performs such a CALL_IN on the
// closure with that ID that observed code passed to an outcall.

// CallbackPrefix starts the site name of a callback's CALL_IN.
const CallbackPrefix = "callback "

var callbacks struct {
	sync.Mutex
	sites  map[uintptr]*Site        // code pointer -> site
	passed map[uint64]reflect.Value // replay: closure ID -> function value passed out
	// replay: Seq of a CALL_OUT -> the observed function values it passed.
	// A callback CALL_IN's Parent is the CALL_OUT that passed its function
	// value when external code calls it on a goroutine of its own (bolt's
	// Batch runs every caller's function on one goroutine: corpus lockcb),
	// or the CALL_OUT it is nested in. Unlike closure IDs, which
	// concurrent goroutines get in whatever order they reach the
	// boundary, the Seq is the same in capture and replay.
	bySeq map[uint64][]reflect.Value
}

// Callback is applied by an outcall helper to each argument of function or
// interface type after the call's arguments are recorded. In capture, an
// observed function value (also one held in an interface, such as an
// http.HandlerFunc) is replaced by a recording wrapper of the same type; in
// replay it is remembered so that recorded callbacks can be performed on it.
// Anything else is returned unchanged.
func Callback[F any](f F) F {
	if !enabled.Load() {
		return f
	}
	// Boxing a function or interface value in an any does not allocate:
	// arguments that are not function values cost no allocation.
	x := any(f)
	if x == nil || reflect.TypeOf(x).Kind() != reflect.Func {
		return f
	}
	fn := reflect.ValueOf(x)
	if fn.IsNil() || !ObservedFunc(x) {
		return f
	}
	if u, ok := unwrapReturned(fn); ok {
		fn = u // a result's recording wrapper handed on: the callback is of the value it wraps (returned.go)
	}
	s := current() // the outcall's stream: its Call takes note (passedCells, passedFuncs)
	var id uint64
	if replaying {
		id = play.closureAtTurn(s, fn)
	} else {
		id = callbackID(fn)
	}
	if replaying {
		callbacks.Lock()
		if callbacks.passed == nil {
			callbacks.passed = map[uint64]reflect.Value{}
		}
		callbacks.passed[id] = fn
		callbacks.Unlock()
		s.passedFuncs = append(s.passedFuncs, fn)
		return f
	}
	site := callbackSite(fn)
	if !fieldsCallbacks.Load() {
		fieldsCallbacks.Store(true) // writefields.go
	}
	passedAt := new(atomic.Uint64) // the Seq of the CALL_OUT passing it, once emitted
	s.passedCells = append(s.passedCells, passedAt)
	// Passed by orphan code's outcall, which replay skips: replay skips the
	// callbacks of this value too, so the objects they number must not be
	// watched either: replay never makes them, so a WRITE_IN of their fields
	// could not be replayed
	// (TestObjectBornInCallbackOfOrphanOutcallWatchedOnlyOnceAnIncallNamesIt).
	orphan := s.pins.orphan
	w := reflect.MakeFunc(fn.Type(), func(args []reflect.Value) []reflect.Value {
		return callIn(site, id, passedAt, orphan, fn, args)
	})
	if ckptOn {
		notePassedWrapper(w, site.Name)
	}
	var out F
	reflect.ValueOf(&out).Elem().Set(w)
	return out
}

// callbackID is the object ID of function value fn as a callback: the
// identity of its closure (two closures of the same code are different
// callbacks), the number its encoding carries too (closureid.go; a log
// older than closureFormat numbered the encoding by code). Capture and
// replay number it at the same point, in the outcall helper.
func callbackID(fn reflect.Value) uint64 {
	closure, ok := closureIdentity(fn)
	if !ok {
		closure = reflect.ValueOf((*byte)(ptrOf(fn.Interface())))
	}
	id, _, _ := objectTable().ID(closure, value.TypeName(fn.Type()), true)
	return id
}

// callbackSite is the incall site of calls of function value fn, named and
// placed after its code (the transform's //line directives give the
// original position).
// helperFrame matches the generated helpers' part of a closure's symbol.
// Compiled on first use: most processes pass no callback, and compiling it
// at initialisation cost every capture and replay process 0.05 ms.
var helperFrame = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\._capture_(in|out|invoke|go)_[0-9]+`)
})

func callbackSite(fn reflect.Value) *Site {
	pc := fn.Pointer()
	callbacks.Lock()
	defer callbacks.Unlock()
	if s, ok := callbacks.sites[pc]; ok {
		return s
	}
	name, pos := "func value", ""
	if f := runtime.FuncForPC(pc); f != nil {
		// The transform moves a function's body into _capture_<name>;
		// its closures are named after the original function. A body
		// inlined into its recording helper names the helper too
		// (gen._capture_in_9._capture_Evens.func1): drop that.
		name = strings.ReplaceAll(helperFrame().ReplaceAllString(f.Name(), ""), "._capture_", ".")
		file, line := f.FileLine(f.Entry())
		pos = shortPos(file, line)
	}
	s := &Site{Name: CallbackPrefix + name, Pos: pos}
	if callbacks.sites == nil {
		callbacks.sites = map[uintptr]*Site{}
	}
	callbacks.sites[pc] = s
	return s
}

// callIn performs a call of observed function value fn by external code as
// an incall: CALL_IN with the arguments, RETURN_IN with the results (or
// PANIC_OUT). In replay the events are matched against the log. passedAt
// holds the Seq of the CALL_OUT that passed fn (capture; nil in replay):
// the Parent of a CALL_IN that no call of the goroutine encloses. orphan:
// fn was passed by an outcall of orphan code (capture; false in replay).
func callIn(site *Site, id uint64, passedAt *atomic.Uint64, orphan bool, fn reflect.Value, args []reflect.Value) []reflect.Value {
	if !enabled.Load() {
		return call(fn, args)
	}
	s := current()
	if s.inside {
		// Observed code calling its own function value through external
		// code's copy: a call inside the set.
		return call(fn, args)
	}
	if smpOn && len(s.frames) == 0 && sampleBegins(s) {
		// Outside a sampled window (sample.go): counted, not recorded.
		f := s.callIdle()
		var out []reflect.Value
		s.runIdle(f, func() { out = call(fn, args) })
		s.returnIdle(f, true)
		return out
	}
	if len(s.frames) != 0 && !replaying && nestedFieldsOn() {
		checkNestedFields(s) // external code's writes during the outcall (writefields.go)
	}
	s.begin(site, eventlog.KindCallIn)
	s.enc.Objects = s.turnTable()
	s.recvID, s.recvType = id, value.TypeName(fn.Type())
	if passedAt != nil && len(s.frames) == 0 {
		s.origin = passedAt.Load()
		if orphan {
			// A top-level callback replay will skip: the objects it numbers
			// are not watched until a replayed event names them; idle ends
			// this when the callback returns.
			s.pins.orphan = true
		}
	}
	for _, a := range args {
		s.enc.EncodeValue(a)
	}
	f := s.Call()
	var out []reflect.Value
	s.Run(f, func() { out = call(fn, args) })
	s.enc.Objects = s.turnTable()
	for i, r := range out {
		s.enc.EncodeValue(r)
		// A function value the callback returns may be called by external
		// code in turn (corpus handlerfunc's Prefix).
		out[i] = returnedResult(r)
	}
	s.Return(f)
	return out
}

func call(fn reflect.Value, args []reflect.Value) []reflect.Value {
	if fn.Type().IsVariadic() {
		return fn.CallSlice(args)
	}
	return fn.Call(args)
}

// performCallback performs, in replay, the recorded callback e on stream s.
func (p *player) performCallback(s *Stream, e *eventlog.Event) {
	fn, ok := passedFunc(e)
	if !ok {
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the log holds a callback of a function value that the replayed code never passed to external code",
			Expected: p.describe(e), Actual: "no such function value", Pos: e.Pos})
		panic(abortReplay{})
	}
	site := callbackSite(fn)
	if site.Name != e.Site {
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the function value passed to external code is different code than in the capture",
			Expected: p.describe(e), Actual: fmt.Sprintf("CALL_IN %s", site.Name), Pos: site.Pos})
		panic(abortReplay{})
	}
	d := value.Decoder{Buf: e.Values, Resolver: p}
	t := fn.Type()
	args := make([]reflect.Value, t.NumIn())
	for i := range args {
		args[i] = reflect.New(t.In(i)).Elem()
		d.DecodeValue(args[i])
	}
	if d.Err != nil || d.Off != len(d.Buf) {
		why := "arguments left over"
		if d.Err != nil {
			why = d.Err.Error()
		}
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the recorded arguments do not fit the function value (signature changed?): " + why,
			Expected: p.describe(e), Actual: "callback " + site.Name, Pos: site.Pos})
		panic(abortReplay{})
	}
	callIn(site, e.RecvID, nil, false, fn, args)
}

// notePassed remembers, in replay, the function values that the outcall
// matched with the log's CALL_OUT seq passed to external code.
func notePassed(s *Stream, seq uint64) {
	if len(s.passedFuncs) == 0 {
		return
	}
	callbacks.Lock()
	if callbacks.bySeq == nil {
		callbacks.bySeq = map[uint64][]reflect.Value{}
	}
	callbacks.bySeq[seq] = append([]reflect.Value(nil), s.passedFuncs...)
	callbacks.Unlock()
	s.passedFuncs = s.passedFuncs[:0]
}

// passedFunc finds the function value to perform recorded callback e on:
// one of the values the CALL_OUT e.Parent passed, of the recorded code
// (the closure with the recorded ID if several are); else, for a callback
// of a value passed earlier (a handler registered before) or a log that
// does not name the passing CALL_OUT, the value passed with the recorded
// closure ID.
func passedFunc(e *eventlog.Event) (reflect.Value, bool) {
	callbacks.Lock()
	byID, okID := callbacks.passed[e.RecvID]
	candidates := callbacks.bySeq[e.Parent]
	callbacks.Unlock()
	var found reflect.Value
	for _, fn := range candidates {
		if callbackSite(fn).Name != e.Site {
			continue
		}
		if okID && ptrOf(fn.Interface()) == ptrOf(byID.Interface()) {
			return fn, true
		}
		if !found.IsValid() {
			found = fn
		}
	}
	if found.IsValid() {
		return found, true
	}
	return byID, okID
}

// performNested performs, in replay, an incall that the log holds inside
// outcall frame fr (a callback), as the external callee did, before the
// outcall is answered. A panic the log recorded leaving the callback ends
// here: the external code saw it, and the log says what it did next.
func (p *player) performNested(s *Stream, e *eventlog.Event) {
	saved := s.frames[len(s.frames)-1]
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(abortReplay); ok {
				panic(r)
			}
			if !s.replay.lastPanicMatched {
				p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "unexpected panic while performing a callback", Actual: fmt.Sprint(r), Pos: e.Pos})
				panic(abortReplay{})
			}
		}
		s.replay.lastPanicMatched = false
		s.site = saved.site
	}()
	s.replay.lastPanicMatched = false
	if strings.HasPrefix(e.Site, CallbackPrefix) {
		p.performCallback(s, e)
		return
	}
	site := lookupSite(e.Site)
	if site == nil || site.Invoke == nil {
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the log holds a callback to a function that this build does not export (removed, renamed or unexported?)",
			Expected: p.describe(e), Actual: "no such exported function", Candidate: p.similarSite(e.Site)})
		panic(abortReplay{})
	}
	s.dec = value.Decoder{Buf: e.Values, Resolver: p}
	s.site = site
	site.Invoke(s)
}
