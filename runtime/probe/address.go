package probe

import (
	"reflect"
	"sync"
	"unsafe"
)

// Addresses observed code turns into integers (docs/design/boundary-model.md,
// "Addresses as data"): reflect.Value's Pointer and UnsafeAddr and
// uintptr(unsafe.Pointer(p)), which the transform routes here where the
// integer stays data (tool/transform/address.go). An address is an input of
// the code, as a clock read is: replay's objects live elsewhere. The
// capture records each read as an outcall of the read's site whose
// argument names the object and whose result is the integer; replay checks
// the argument, as any outcall's (reading the address of another object,
// or reading one where the capture did not, diverges there), and answers
// the capture's integer.
//
// The argument is the object's reference (its ID) where an event numbered
// the object before, and otherwise the object's number among those that
// address reads alone met (addrObjects: the order in which they first met
// it, a table of its own). A read numbers nothing in the objects' table:
// an object met first by a read and later crossing with its contents is
// the crossing's first sight, as without the read, so replay rebuilds it
// there (a value replay stands in for at the read, an error the log holds
// by its message, and whose real type shows at a later crossing, would
// otherwise be one ID of two objects).

// LastUnrecordedAddressFormat is the last log format whose logs hold no
// event for observed code's reads of addresses: replay of such a log reads
// them natively, as its capture did.
const LastUnrecordedAddressFormat = 11

func addressesUnrecorded() bool {
	return replaying && play != nil && play.format <= LastUnrecordedAddressFormat
}

// AddressesUnrecorded reports whether replay reads a log whose capture
// read addresses natively: the fmt calls that may print one, outcalls
// since, ran natively there.
func AddressesUnrecorded() bool { return addressesUnrecorded() }

// AddressOf is uintptr(p) for observed code (conversions of an
// unsafe.Pointer to an integer).
func AddressOf(site *Site, p unsafe.Pointer) uintptr {
	a := uintptr(p)
	if p == nil || addressesUnrecorded() || stringStart(p) { // stringmem.go
		return a
	}
	s := Out(site)
	if s == nil {
		return a
	}
	addressArg(s, p)
	return addressRead(s, a, 0)
}

// addrObjects numbers the objects address reads meet that no event
// numbered before, in capture and replay alike (weakly: an object's number
// goes with it).
var addrObjects struct {
	once sync.Once
	t    *objects
}

// addressArg appends the read's argument: a reference to the object at p
// when it has an ID already, else its number among the objects only
// address reads met.
func addressArg(s *Stream, p unsafe.Pointer) {
	if s.idleCall {
		return
	}
	if numbered(p) {
		Encode(s, p)
		return
	}
	addrObjects.once.Do(func() { addrObjects.t = newObjects() })
	id, _, _, _ := addrObjects.t.lookup(reflect.ValueOf(p), true, false, false)
	s.Uint(id)
}

// numbered reports whether the object at p has an ID in the log's
// numbering (the capture's table, or replay's bindings).
func numbered(p unsafe.Pointer) bool {
	if replaying {
		pl := play
		if pl == nil {
			return false
		}
		pl.objMu.Lock()
		_, ok := pl.ids[p]
		pl.objMu.Unlock()
		return ok
	}
	o := captureObjects
	o.mu.Lock()
	_, ok := o.knownLocked(p)
	o.mu.Unlock()
	return ok
}

// UnsafeAddrOf is v.UnsafeAddr() for observed code.
func UnsafeAddrOf(site *Site, v reflect.Value) uintptr {
	return AddressOf(site, unsafe.Pointer(v.UnsafeAddr()))
}

// PointerOf is v.Pointer() for observed code: the address of what a
// pointer, map, channel, slice, string or unsafe.Pointer refers to, or a
// function's code pointer (FuncPointer: a stand-in's own in replay).
func PointerOf(site *Site, v reflect.Value) uintptr {
	if v.Kind() != reflect.Func {
		return AddressOf(site, unsafe.Pointer(v.Pointer()))
	}
	a := FuncPointer(v)
	if a == 0 || addressesUnrecorded() {
		return a
	}
	if !v.CanInterface() {
		// A function read through an unexported field: the encoding
		// names a function value by what the value holds, which only
		// a value without the read-only mark gives.
		if !v.CanAddr() {
			return a
		}
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	s := Out(site)
	if s == nil {
		return a
	}
	s.enc.Objects = s.objectTable()
	if !s.idleCall {
		s.enc.EncodeValue(v)
	}
	return addressRead(s, a, a)
}

// addressRead ends the event of an address read whose object s has
// encoded: the capture records a, replay answers the recorded integer.
// code is a's function code pointer (0 for data), which replay maps from
// the recorded one (NativePC).
func addressRead(s *Stream, a, code uintptr) uintptr {
	f := s.Call()
	if s.Replaying() {
		s.Answer(f)
		r := uintptr(s.DecodeUint())
		s.Done(f)
		if code != 0 && r != code {
			codeFromLog.Store(r, code)
		}
		return r
	}
	s.Run(f, func() {})
	s.Uint(uint64(a))
	s.Return(f)
	return a
}

// codeFromLog maps, in replay, the code pointers that PointerOf answered
// from the log to the functions' code pointers in replay's binary.
var codeFromLog sync.Map // uintptr -> uintptr

// NativePC is pc as replay's binary knows it: the replay's own code
// pointer where pc is one that PointerOf answered from the log (a
// function's address in the capture's binary), else pc. Observed code's
// runtime.FuncForPC runs on it natively (ObservedPC).
func NativePC(pc uintptr) uintptr {
	if replaying {
		if n, ok := codeFromLog.Load(pc); ok {
			return n.(uintptr)
		}
	}
	return pc
}
