// Package funcptr reduces gods' treeset (TestSetDifference,
// TestSetIntersection, TestSetUnion: "the code made a different boundary
// call than the log holds" at iterator.go:24): Difference returns early
// when the two sets' comparators differ, which it tells by
// `reflect.ValueOf(cmp).Pointer()`. The comparators are function values
// from outside; replay stands in for them with reflect.MakeFunc closures,
// which share one code pointer, so two comparators that differed in the
// capture were equal in replay.
package funcptr

import "reflect"

// Set is a set of ints kept in its comparator's order.
type Set struct {
	cmp   func(a, b int) int
	items []int
}

// New returns an empty set ordered by cmp.
func New(cmp func(a, b int) int) *Set { return &Set{cmp: cmp} }

// Add inserts x.
func (s *Set) Add(x int) {
	i := 0
	for i < len(s.items) && s.cmp(s.items[i], x) < 0 {
		i++
	}
	s.items = append(s.items[:i], append([]int{x}, s.items[i:]...)...)
}

// Merge returns the items of both sets in s's order, or nil when the two
// are ordered by different comparators.
func (s *Set) Merge(o *Set) []int {
	if reflect.ValueOf(s.cmp).Pointer() != reflect.ValueOf(o.cmp).Pointer() {
		return nil
	}
	m := New(s.cmp)
	for _, x := range append(append([]int(nil), s.items...), o.items...) {
		m.Add(x)
	}
	return m.items
}
