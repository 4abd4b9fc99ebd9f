package probe

import (
	"hash/fnv"
	"reflect"
	"sync"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Function values of the observed set are numbered by their closure, not
// by their code: two closures of one function literal are two objects
// (hashicorp/go-version's WithPrefix("release-") and WithPrefix("release_")
// return two options of one code pointer, which the test then passes back
// to NewVersion; numbered by code, both were Option#1 and replay handed
// NewVersion the first). A function without captured variables has one
// static closure, so it keeps one number however often it crosses. The
// number is the one a callback of the same closure carries (callbackID).
//
// Function values from outside keep their code as identity in the capture:
// replay's stand-ins for them are told apart by closure already (key), and
// calling one is an outcall answered from the log whichever it is.

// closureFormat is the first log format whose observed function values are
// numbered by closure; a player of an older log numbers them by code, as
// their capture did.
const closureFormat = 6

// closureIdentity returns the closure of v, an observed function value (or
// an interface holding one), as the pointer its object ID is kept under in
// the tables' heap part (a static closure falls into their code part).
func closureIdentity(v reflect.Value) (reflect.Value, bool) {
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return v, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Func || v.IsNil() {
		return v, false
	}
	if fn, ok := unwrapReturned(v); ok {
		v = fn // a recording wrapper handed back in (returned.go)
	}
	if !observedCode(v.Pointer()) {
		return v, false
	}
	return reflect.ValueOf((*byte)(funcClosure(v))), true
}

// funcClosure is the closure pointer of function value v, also of one read
// from an unexported field (which Interface refuses): a func is
// pointer-shaped, so reflect.Value holds the closure pointer itself, or
// for an addressable value (flagIndir) the address of the variable that
// holds it.
func funcClosure(v reflect.Value) unsafe.Pointer {
	const flagIndir = 1 << 7 // reflect's, unchanged since Go 1.4
	h := (*struct {
		typ, ptr unsafe.Pointer
		flag     uintptr
	})(unsafe.Pointer(&v))
	if h.flag&flagIndir != 0 {
		return *(*unsafe.Pointer)(h.ptr)
	}
	return h.ptr
}

// observedCode is ObservedFunc for a code pointer (sharing its cache).
func observedCode(pc uintptr) bool {
	if obs, ok := observedFuncs.Load(pc); ok {
		return obs.(bool)
	}
	obs := observedCodeAt(pc)
	observedFuncs.Store(pc, obs)
	return obs
}

// closureKey is player.key for an observed function value of a log that
// numbers them by closure.
func (p *player) closureKey(v reflect.Value) (unsafe.Pointer, bool) {
	if p.format < closureFormat {
		return nil, false
	}
	c, ok := closureIdentity(v)
	if !ok {
		return nil, false
	}
	return c.UnsafePointer(), true
}

// Top-level functions of the observed set have object IDs of their own.
// External code may take one as a value and pass it in (montanaflynn/stats'
// test passes stats.Percentile to DescribePercentileFunc): observed code
// calls it natively, in the capture and in replay, since it is observed
// code, so replay must hand the replayed code that very function where the
// log names it, not a stand-in whose calls would be outcalls. An ID of the
// counter's cannot say which function it was; a reserved one can. The
// generated _capture_end_init registers every top-level function of its
// package (Funcs) under an ID from a range of its own, a hash of the
// function's name (funcID), so that it depends neither on what else either
// process numbered nor on the order packages initialise in. Replay binds a
// function to its ID only where the log names that ID: a log of a capture
// that numbered functions by the counter names none, and replays as before.
// A function that crossed during its package's initialisation, before the
// registration, keeps the counter's number in both.

// funcIDs is the first ID of the reserved range; funcIDBits its width. The
// range lies above the variables' (varIDs) and below checkpoints' local IDs
// (localIDs).
const (
	funcIDs    = 1 << 44
	funcIDBits = 43
)

// funcID is the reserved ID of the top-level function named name
// (import path, dot, name).
func funcID(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return funcIDs + h.Sum64()&(1<<funcIDBits-1)
}

// claimFuncIDLocked returns the reserved ID of name (funcID) and true, or
// false when another name of the same hash holds it (funcIDNames.mu held).
func claimFuncIDLocked(name string) (uint64, bool) {
	if funcIDNames.byID == nil {
		funcIDNames.byID = map[uint64]string{}
	}
	id := funcID(name)
	if prev, dup := funcIDNames.byID[id]; dup && prev != name {
		return 0, false
	}
	funcIDNames.byID[id] = name
	return id, true
}

var funcIDNames struct {
	sync.Mutex
	byID map[uint64]string
}

// Funcs registers the top-level functions fns, named names, of observed
// package pkg (from its generated _capture_end_init): each gets its
// reserved ID (funcID). Two names of one hash (which a 43-bit hash makes
// unlikely) keep the first registered; the other is numbered by the
// counter, in capture and replay alike, as long as packages initialise in
// the same order.
func Funcs(pkg string, names []string, fns ...any) {
	funcIDNames.Lock()
	defer funcIDNames.Unlock()
	if funcIDNames.byID == nil {
		funcIDNames.byID = map[uint64]string{}
	}
	for i, f := range fns {
		fn := reflect.ValueOf(f)
		if fn.Kind() != reflect.Func || fn.IsNil() || i >= len(names) {
			continue
		}
		id, ok := claimFuncIDLocked(pkg + "." + names[i])
		if !ok {
			continue
		}
		clo, ok := closureIdentity(fn)
		if !ok {
			continue
		}
		if !replaying {
			captureObjects.reserve(id, clo, true)
			continue
		}
		p := play
		if p.format < closureFormat {
			continue
		}
		p.first.once.Do(p.computeFirstAppearances)
		if p.first.names.has(id) {
			p.reserve(id, fn, value.TypeName(fn.Type()))
		}
	}
}

// FuncVars registers the exported variables of function type of observed
// package pkg, named names (ptrs point to them), from its generated
// _capture_end_init: a variable that holds an observed function value after
// the package's initialisation (chi's middleware.DefaultLogger, the
// handler-maker RequestLogger returned) may be called by external code, as
// a result an incall returned may (Returned), which would run observed code
// that no incall encloses: its events went unreplayed, and what it did to
// observed objects was missing in replay (DefaultLogger's writer kept
// status 0). The value gets an ID reserved for the variable (funcID of
// "pkg.Name var") and, in capture, is replaced by a recording wrapper, so
// external code's calls are callbacks; in replay the player performs the
// recorded callbacks on the value the replayed initialisation stored
// (corpus handlerfunc's Default). A checkpoint takes the wrapper for the
// variable's value after initialisation (resetStateVarInit).
func FuncVars(pkg string, names []string, ptrs ...any) {
	if !enabled.Load() {
		return
	}
	for i, ptr := range ptrs {
		pv := reflect.ValueOf(ptr)
		if pv.Kind() != reflect.Pointer || pv.IsNil() || i >= len(names) {
			continue
		}
		v := pv.Elem()
		if v.Kind() != reflect.Func || v.IsNil() || !ObservedFunc(v.Interface()) {
			continue
		}
		clo, ok := closureIdentity(v)
		if !ok {
			continue // a top-level function: Funcs numbers it
		}
		funcIDNames.Lock()
		id, ok := claimFuncIDLocked(pkg + "." + names[i] + " var")
		funcIDNames.Unlock()
		if !ok {
			continue
		}
		fn := reflect.ValueOf(v.Interface())
		if !replaying {
			captureObjects.reserve(id, clo, true)
			// Not noted as a returned closure: the variable's lives as long
			// as the process, and must not hold checkpoints back.
			v.Set(recordingWrapper(fn))
			resetStateVarInit(pkg + "." + names[i])
			continue
		}
		p := play
		if p.format < closureFormat {
			continue
		}
		p.reserve(id, fn, value.TypeName(fn.Type()))
		callbacks.Lock()
		if callbacks.passed == nil {
			callbacks.passed = map[uint64]reflect.Value{}
		}
		callbacks.passed[id] = fn
		callbacks.Unlock()
	}
}
