// Package deref is outside the observed set: its functions take and return
// reflect.Values (as expr's internal/deref does).
package deref

import "reflect"

// Value follows pointers and interfaces down to the value they hold. The
// element of a pointer is addressable: writes through it land in the
// pointee.
func Value(v reflect.Value) reflect.Value {
	for v.IsValid() && (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && !v.IsNil() {
		v = v.Elem()
	}
	return v
}
