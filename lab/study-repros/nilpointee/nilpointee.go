// Package nilpointee: observed code that reflects over a pointer to its
// caller's slice and makes the slice when it is nil (mapstructure's
// WeakDecode into a *[]Basic). A pointer to a slice crosses with its
// pointee at every sight, so when the caller sets the slice back to nil
// between two calls, the second call's argument says so.
package nilpointee

import "reflect"

// Append appends vals to the slice out points to, making an empty slice
// first when it is nil.
func Append(out any, vals ...string) int {
	rv := reflect.ValueOf(out).Elem()
	if rv.IsNil() {
		rv.Set(reflect.MakeSlice(rv.Type(), 0, len(vals)))
	}
	for _, v := range vals {
		rv.Set(reflect.Append(rv, reflect.ValueOf(v)))
	}
	return rv.Len()
}
