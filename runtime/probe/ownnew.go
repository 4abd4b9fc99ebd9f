package probe

import "reflect"

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
