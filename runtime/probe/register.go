package probe

import (
	"reflect"
	"sync"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Registration: generated code tells the runtime about the observed
// package during its initialisation.

var (
	sitesMu sync.RWMutex
	sites   = map[string]*Site{} // incall sites by name, for replay's driver

	placeholdersMu sync.RWMutex
	placeholders   = map[reflect.Type]func() reflect.Value{} // interface type -> placeholder maker
)

// Package marks path as an observed package.
func Package(path string) struct{} {
	value.ObservePackage(path)
	notePackage(path)
	return struct{}{}
}

// Incall registers the incall site of an exported function or method, so
// that replay can perform recorded calls to it.
func Incall(s *Site) struct{} {
	sitesMu.Lock()
	sites[s.Name] = s
	sitesMu.Unlock()
	return struct{}{}
}

func lookupSite(name string) *Site {
	sitesMu.RLock()
	defer sitesMu.RUnlock()
	return sites[name]
}

// Type registers T so that replay can rebuild values of that dynamic type
// (types named in type assertions, type switches, errors.As targets, and
// at boundary signatures).
func Type[T any]() struct{} {
	value.RegisterType(reflect.TypeFor[T]())
	return struct{}{}
}

// OwnType registers T as a type of the observed package itself (declared in
// its non-test files): values of it are observed code; values of types its
// tests declare are not.
func OwnType[T any]() struct{} {
	value.RegisterOwnType(reflect.TypeFor[T]())
	return struct{}{}
}

// Sentinel registers an exported package-level error variable that
// observed code compares errors with.
func Sentinel(name string, err error) struct{} {
	value.RegisterSentinel(name, err)
	return struct{}{}
}

// Placeholder registers how replay makes a stand-in of interface type I
// for a recorded value whose dynamic type this build cannot construct.
func Placeholder[I any](make func() I) struct{} {
	placeholdersMu.Lock()
	placeholders[reflect.TypeFor[I]()] = func() reflect.Value { return reflect.ValueOf(make()) }
	placeholdersMu.Unlock()
	return struct{}{}
}

// BeginInit marks the start of an observed package's initialisation: its
// outcalls are recorded in stream 0. The transform puts the call first in
// the package's variable initialisation order.
func BeginInit() struct{} {
	if enabled.Load() {
		current().inside = true
		initializing.Store(true)
	}
	return struct{}{}
}

// EndInit marks the end of an observed package's initialisation (called from
// the package's last init function).
func EndInit() {
	if enabled.Load() {
		current().inside = false
		initializing.Store(false)
	}
	snapshotVars()
	noteInitEnd()
}

// Args reports, in a replay invoker, whether the recorded arguments were
// decoded completely; if not, the divergence is reported and the invoker
// must not make the call.
func (s *Stream) Args() bool {
	if s.dec.Err == nil && s.dec.Off == len(s.dec.Buf) {
		return true
	}
	argsMismatch(s)
	return false
}

// A Ref stands in, during replay, for a recorded reference held in an empty
// interface whose dynamic type this build does not know.
type Ref struct {
	Type string // recorded dynamic type
	ID   uint64 // recorded object ID
}

func init() {
	for _, v := range []any{false, 0, int8(0), int16(0), int32(0), int64(0), uint(0), uint8(0), uint16(0), uint32(0),
		uint64(0), uintptr(0), float32(0), float64(0), complex64(0), complex128(0), "", []byte(nil)} {
		value.RegisterType(reflect.TypeOf(v))
	}
}

// PlaceholderCalled is the panic value of a placeholder method run by
// something other than observed code's intercepted calls (a bug: report it).
const PlaceholderCalled = "rules_capture: a replay placeholder's method was called directly; its calls should have been answered from the log"
