package probe

import (
	"reflect"
	"runtime"
	"slices"
	"sync"
	"weak"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Returned is applied by an incall wrapper to each result of function or
// interface type after the call's RETURN_IN: an observed function value
// that leaves the set as a result (an iterator such as gjson's Result.All,
// an option such as go-version's WithPrefix, chi's middleware returning
// http.HandlerFunc(fn) as an http.Handler) may be called by external code,
// which runs observed code no incall encloses. In capture the value is
// replaced by a recording wrapper of the same type, as Callback does for an
// outcall's arguments: a call from external code is a CALL_IN of the site
// "callback <function>" whose receiver is the closure's object ID, the
// number the RETURN_IN gave it (closureid.go); a call from observed code (the value
// handed back in) runs natively. In replay the value is remembered under
// that number, and the driver performs the recorded calls on it.
//
// Without it, such calls ran unrecorded in the capture; the exported
// functions the closure called recorded top-level incalls with arguments
// (closures of the set made inside it) that replay could not make.
func Returned[F any](f F) F {
	if !enabled.Load() {
		return f
	}
	x := any(f)
	if x == nil || reflect.TypeOf(x).Kind() != reflect.Func {
		return f
	}
	w, ok := wrapReturned(reflect.ValueOf(x))
	if !ok {
		return f
	}
	var out F
	reflect.ValueOf(&out).Elem().Set(w)
	return out
}

// returnedResult is Returned for a result of a callback (callIn): an
// observed function value, or one in an interface, that a function value
// external code called returns (chi's middleware: the func(http.Handler)
// http.Handler an incall returned, called by the router, returns an
// http.HandlerFunc that the router calls for every request).
func returnedResult(r reflect.Value) reflect.Value {
	fn := r
	if r.Kind() == reflect.Interface {
		if r.IsNil() {
			return r
		}
		fn = r.Elem()
	}
	if fn.Kind() != reflect.Func {
		return r
	}
	w, ok := wrapReturned(fn)
	if !ok {
		return r
	}
	out := reflect.New(r.Type()).Elem()
	out.Set(w)
	return out
}

// wrapReturned returns the recording wrapper of fn, an observed function
// value leaving the set as a result, and true (capture); in replay it
// remembers fn under the number the RETURN_IN gave it and returns false.
func wrapReturned(fn reflect.Value) (reflect.Value, bool) {
	if fn.IsNil() || !ObservedFunc(fn.Interface()) {
		return reflect.Value{}, false
	}
	if u, ok := unwrapReturned(fn); ok {
		fn = u // a recording wrapper handed on: wrap the value it wraps, once
	}
	if replaying {
		p := play
		if p.format < closureFormat {
			return reflect.Value{}, false // numbered by code: the log's callbacks name no closure
		}
		clo, _ := closureIdentity(fn)
		p.objMu.Lock()
		id, _, _, ok := p.knownLocked(clo, value.TypeName(fn.Type()))
		p.objMu.Unlock()
		if ok {
			callbacks.Lock()
			if callbacks.passed == nil {
				callbacks.passed = map[uint64]reflect.Value{}
			}
			callbacks.passed[id] = fn
			callbacks.Unlock()
		}
		return reflect.Value{}, false
	}
	w := recordingWrapper(fn) // numbers fn: the table now holds it
	if clo, ok := closureIdentity(fn); ok {
		if _, _, inTable, wp := captureObjects.lookup(clo, true, true, false); inTable {
			returnedClosures.note(wp, value.TypeName(fn.Type()))
		}
	}
	return w, true
}

// recordingWrapper returns a function of fn's type whose calls from
// external code are callbacks of fn (callIn), receiver fn's object ID,
// which it gives fn.
func recordingWrapper(fn reflect.Value) reflect.Value {
	site, id := callbackSite(fn), callbackID(fn)
	if !fieldsCallbacks.Load() {
		fieldsCallbacks.Store(true) // writefields.go
	}
	w := reflect.MakeFunc(fn.Type(), func(args []reflect.Value) []reflect.Value {
		return callIn(site, id, nil, false, fn, args)
	})
	noteReturnedWrapper(w, fn)
	return w
}

// Stored is applied by a WRITE_OUT helper to a value of function or
// interface type that observed code writes into another package's variable
// or a field of an external struct: external code may call an observed
// function value stored there, without any incall enclosing the call
// (go-toml's unstable stores closures and a function in
// internal/parserbridge's variables in its init, and the root package's
// decoder calls them on an unstable.Parser). It wraps the value as Returned
// does, after the WRITE_OUT numbered it: external code's calls are
// callbacks (CALL_IN "callback <function>", receiver the closure's ID),
// observed code's own calls of the stored value run natively, and replay
// performs the recorded calls on the value its replayed write stored.
func Stored[F any](f F) F { return Returned(f) }

// returnedWrappers maps the closure of a recording wrapper that Returned
// made to the closure of the function value it wraps: the wrapper handed
// back in (the test passes the option to NewVersion) is the same object as
// the value the RETURN_IN numbered.
var returnedWrappers sync.Map // uintptr -> reflect.Value

// makeFuncCode is the code pointer every reflect.MakeFunc value shares.
var makeFuncCode = sync.OnceValue(func() uintptr {
	return reflect.MakeFunc(reflect.TypeFor[func()](), func([]reflect.Value) []reflect.Value { return nil }).Pointer()
})

func noteReturnedWrapper(w, fn reflect.Value) {
	wc := funcClosure(w)
	returnedWrappers.Store(uintptr(wc), fn)
	runtime.AddCleanup((*byte)(wc), func(k uintptr) { returnedWrappers.Delete(k) }, uintptr(wc))
}

// unwrapReturned returns the function value a Returned wrapper v wraps.
func unwrapReturned(v reflect.Value) (reflect.Value, bool) {
	if v.Kind() != reflect.Func || v.IsNil() || v.Pointer() != makeFuncCode() {
		return reflect.Value{}, false
	}
	fn, ok := returnedWrappers.Load(uintptr(funcClosure(v)))
	if !ok {
		return reflect.Value{}, false
	}
	return fn.(reflect.Value), true
}

// isReturnedWrapper: v is a Returned wrapper, which ObservedFunc counts as
// the observed function value it wraps (a call of it from observed code
// runs natively, as a call of the value itself does).
func isReturnedWrapper(v reflect.Value) bool {
	_, ok := unwrapReturned(v)
	return ok
}

// returnedClosures are the closures with captured variables that incalls
// returned (Returned), while they live: external code holds them and may
// call them or hand them back in, and a checkpoint cannot rebuild what they
// captured, so none is taken while one lives (liveReturnedClosure).
var returnedClosures closureSet

type closureSet struct {
	sync.Mutex
	live  map[weak.Pointer[byte]]string // closure -> its type's name
	limit int                           // prune the collected ones past this size
}

func (c *closureSet) note(wp weak.Pointer[byte], name string) {
	c.Lock()
	defer c.Unlock()
	if c.live == nil {
		c.live = map[weak.Pointer[byte]]string{}
	}
	c.live[wp] = name
	if len(c.live) > c.limit {
		c.pruneLocked()
		c.limit = max(64, 2*len(c.live))
	}
}

func (c *closureSet) pruneLocked() {
	for wp := range c.live {
		if wp.Value() == nil {
			delete(c.live, wp)
		}
	}
}

// liveReturnedClosure is why no checkpoint is taken now, or "".
func liveReturnedClosure() string {
	c := &returnedClosures
	c.Lock()
	defer c.Unlock()
	c.pruneLocked()
	var names []string
	for _, name := range c.live {
		names = append(names, name)
	}
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	return "external code holds a function value of observed code that an incall returned or observed code stored outside the set (" + names[0] + "), whose captured variables a checkpoint cannot rebuild"
}
