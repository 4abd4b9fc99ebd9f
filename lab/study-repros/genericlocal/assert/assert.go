// Package assert is a test helper package of a module, as go-toml's
// internal/assert: its generic Equal, which reflects over its arguments, is
// instantiated by the tests of the module's other packages with their own
// types, some declared inside a test function, and with reflect.Type.
package assert

import "reflect"

// Equal reports whether a and b are deeply equal.
func Equal[T any](a, b T) bool {
	if reflect.ValueOf(a).Kind() != reflect.ValueOf(b).Kind() {
		return false
	}
	return reflect.DeepEqual(a, b)
}
