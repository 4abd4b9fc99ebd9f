package probe

import (
	"reflect"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// OwnNew marks the memory v points to, a value reflect.New made in observed
// code, as an address the observed code owns (Own), and returns v: an
// outcall that gets it as its receiver or as an argument records its
// pointee after the call (mapstructure's `reflect.New(t).Interface()`
// handed to UnmarshalText), and replay writes it back. Replay of a log of
// LastUnrebuiltOutFormat or before marks nothing: the capture that wrote
// it did not.
func OwnNew(v reflect.Value) reflect.Value {
	if v.Kind() == reflect.Pointer && !v.IsNil() && v.CanInterface() && writesBackRebuilt() {
		Own(v.Interface())
	}
	return v
}

// LastUnmadeOutFormat is the last log format version whose RETURN_OUT
// events do not hold the post-call pointee of memory observed code made
// with reflect.MakeSlice, reflect.Append or reflect.AppendSlice (OwnMade).
// Replay of such a log counts it as nobody's, and leaves it as it was.
const LastUnmadeOutFormat = 10

// writesBackMade reports whether the log written or replayed holds the
// pointees LastUnmadeOutFormat names.
func writesBackMade() bool {
	if play == nil {
		return eventlog.FormatVersion > LastUnmadeOutFormat
	}
	return play.format > LastUnmadeOutFormat
}

// OwnMade marks the backing array of v, a slice observed code made (or
// grew) with reflect.MakeSlice, reflect.Append or reflect.AppendSlice, as
// memory the observed code owns, at its start or inside it (as an incall's
// reflected argument's memory, markRebuilt), and returns v: go-toml's
// decoder makes a slice of a test's type and calls the type's
// UnmarshalText on the address of each element, an outcall whose write
// replay must perform. The calls run in replay too, so both mark the same
// memory.
func OwnMade(v reflect.Value) reflect.Value {
	if v.Kind() != reflect.Slice || v.Cap() == 0 || !writesBackMade() {
		return v
	}
	et := v.Type().Elem()
	if et.Size() == 0 || syncValue(et) || value.IsObservedType(et) {
		return v
	}
	markSpan(v.UnsafePointer(), uintptr(v.Cap())*et.Size())
	return v
}
