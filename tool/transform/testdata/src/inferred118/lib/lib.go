// Package lib is the external package: generic functions the observed
// package calls without naming their type arguments.
package lib

// Pair holds two values.
type Pair[K comparable, V any] struct {
	Key   K
	Value V
}

// NewPair makes a pair (golang-lru's simplelru.NewLRU: called as
// NewPair(k, v) in generic code).
func NewPair[K comparable, V any](k K, v V) (*Pair[K, V], error) {
	return &Pair[K, V]{k, v}, nil
}

// Both returns its arguments (a multi-value argument to an outcall).
func Both[T any](a, b T) (T, T) { return a, b }

// Max returns the larger of its arguments.
func Max[T int | string](a, b T) T {
	if a > b {
		return a
	}
	return b
}

// Keyed makes a map from keys of a type the caller names to values of the
// type of v (a partial instantiation: Keyed[int](v)).
func Keyed[K comparable, V any](v V) map[K]V { return map[K]V{} }
