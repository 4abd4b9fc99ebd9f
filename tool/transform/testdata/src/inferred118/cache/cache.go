// Package cache calls lib's generic functions with inferred type arguments,
// in a module at go 1.18: its helpers must name the instantiation, since
// passing a generic function uninstantiated needs go1.21.
package cache

import "example.com/inferred118/lib"

// Entry wraps a lib pair.
type Entry[K comparable, V any] struct {
	p *lib.Pair[K, V]
}

// New makes an entry (type arguments from the enclosing type parameters).
func New[K comparable, V any](k K, v V) (*Entry[K, V], error) {
	p, err := lib.NewPair(k, v)
	return &Entry[K, V]{p}, err
}

// Larger is a non-generic caller (type argument int).
func Larger(a, b int) int { return lib.Max(a, b) }

// First calls a generic function with another's results.
func First(a, b string) string { return lib.Max(lib.Both(a, b)) }
