// Package assert is a test helper package of a module, as go-toml's
// internal/assert: its generic Equal is instantiated by the tests of the
// module's other packages with their own types.
package assert

// Equal reports whether a and b are equal.
func Equal[T comparable](a, b T) bool { return a == b }
