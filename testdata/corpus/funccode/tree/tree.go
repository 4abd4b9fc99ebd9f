// Package tree keeps keys in the order of a comparator from outside, the
// caller's or one it takes itself (as gods' avltree.NewWithStringComparator
// does): the test passing cmps.Strings and the package taking it are one
// function value.
package tree

import (
	"reflect"

	"example.com/funccode/cmps"
)

// Comparator orders keys.
type Comparator func(a, b any) int

// Tree keeps keys sorted.
type Tree struct {
	Comparator Comparator
	keys       []any
}

// NewWith returns a tree ordered by cmp.
func NewWith(cmp Comparator) *Tree { return &Tree{Comparator: cmp} }

// NewWithStrings returns a tree of strings.
func NewWithStrings() *Tree { return &Tree{Comparator: cmps.Strings} }

// Put adds k.
func (t *Tree) Put(k any) {
	i := 0
	for i < len(t.keys) && t.Comparator(t.keys[i], k) < 0 {
		i++
	}
	t.keys = append(t.keys[:i], append([]any{k}, t.keys[i:]...)...)
}

// Keys returns the keys in order.
func (t *Tree) Keys() []any { return append([]any(nil), t.keys...) }

// SameOrder reports whether t and o order by one function.
func (t *Tree) SameOrder(o *Tree) bool {
	return reflect.ValueOf(t.Comparator).Pointer() == reflect.ValueOf(o.Comparator).Pointer()
}
