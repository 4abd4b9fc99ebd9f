// Package ext is external code with generic functions and types that the
// observed package calls.
package ext

import (
	"fmt"
	"os"
)

// Point is an exported type used as a type argument.
type Point struct{ X, Y int }

// Describe formats v with its type, and a suffix from the environment.
func Describe[T any](v T) string {
	return fmt.Sprintf("%T:%v%s", v, v, os.Getenv("DESCRIBE_SUFFIX"))
}

// Filter keeps the elements for which keep reports true.
func Filter[T any](xs []T, keep func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

// Box holds one value.
type Box[T any] struct {
	V       T
	Refills int
}

// Get returns the value.
func (b *Box[T]) Get() T { return b.V }
