package probe

import (
	"reflect"
	"runtime"
	"strings"
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
	obs := false
	if fn := runtime.FuncForPC(pc); fn != nil {
		file, _ := fn.FileLine(pc)
		obs = value.IsObservedPackage(funcPackage(fn.Name())) && !strings.HasSuffix(file, "_test.go")
	}
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
