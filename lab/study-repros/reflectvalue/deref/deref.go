// Package deref is outside the observed set and returns reflect.Values, as
// expr's internal/deref.Value does.
package deref

import "reflect"

// Value follows pointers down to what they point to: an addressable value.
func Value(v reflect.Value) reflect.Value {
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	return v
}
