// Package gen is the observed set: exported generic functions and a generic
// type whose methods external code calls with several type arguments, and
// generic code that calls external (generic) code.
package gen

import (
	"cmp"
	"math/rand"
	"slices"
	"strconv"

	"example.com/generics/ext"
)

// Map applies f (external code's function) to every element.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// Number is a constraint on the numbers Sum adds.
type Number interface {
	~int | ~int64 | ~float64
}

// Sum adds the numbers.
func Sum[N Number](xs []N) N {
	var total N
	for _, x := range xs {
		total += x
	}
	return total
}

// SortedKeys returns the keys of m in order (slices.Sort runs natively:
// the keys are ordered values the observed code owns).
func SortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Stamp describes v through external generic code and adds a random tag.
func Stamp[T any](v T) string {
	return ext.Describe(v) + "#" + strconv.Itoa(rand.Intn(100))
}

// Evens keeps the even numbers (a call of an external generic function
// from non-generic code, with a callback).
func Evens(xs []int) []int {
	return ext.Filter(xs, func(x int) bool { return x%2 == 0 })
}

// Unbox reads a value out of external code's generic box.
func Unbox(b *ext.Box[string]) string {
	return "<" + b.Get() + ">"
}

// Refill writes v into external code's generic box and counts the refill:
// WRITE_OUTs of fields of an external generic type from generic code, one
// of a type-parameter type (golang-lru's expirable writes `ent.Value =
// value` on an *internal.Entry[K, V]; study repro genericwrite).
func Refill[T any](b *ext.Box[T], v T) {
	b.V = v
	b.Refills++
}

// Peek reads external code's generic box: READ_OUTs of fields of an
// external generic type from generic code, one of a type-parameter type
// (golang-lru's expirable reads ent.ExpiresAt and
// ent.Value of an *internal.Entry[K, V] that external code made).
func Peek[T any](b *ext.Box[T]) (T, int) {
	return b.V, b.Refills
}

// Each calls f for every entry of m: a range over a map whose key type is
// a type parameter, with a boundary event per entry, iterates in key order
// when the keys are integers or strings, in the capture and in replay alike
// (study repro genericmaporder: golang-lru's LRU[K, V].Purge).
func Each[K comparable, V any](m map[K]V, f func(K, V)) {
	for k, v := range m {
		f(k, v)
	}
}

// Stack is a generic stack.
type Stack[T any] struct {
	items []T
}

// NewStack returns an empty stack.
func NewStack[T any]() *Stack[T] {
	return &Stack[T]{}
}

// Push adds v on top.
func (s *Stack[T]) Push(v T) {
	s.items = append(s.items, v)
}

// Pop removes the top element.
func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

// Len is the number of elements.
func (s *Stack[E]) Len() int { return len(s.items) }

// Next returns the first value received from in, unless stop is closed
// first (a select in generic code on channels from outside).
func Next[T any](in <-chan T, stop <-chan struct{}) (T, bool) {
	select {
	case v, ok := <-in:
		return v, ok
	case <-stop:
		var zero T
		return zero, false
	}
}
