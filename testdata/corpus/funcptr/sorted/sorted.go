// Package sorted compares the comparators it is given, function values
// from outside, by their code pointer (reflect.Value.Pointer), as gods'
// treeset does before merging two sets: replay must tell two recorded
// comparators apart as the capture did, and one comparator seen twice as
// one.
package sorted

import "reflect"

// Set is a set of strings kept in its comparator's order.
type Set struct {
	cmp   func(a, b string) int
	items []string
}

// New returns an empty set ordered by cmp.
func New(cmp func(a, b string) int, items ...string) *Set {
	s := &Set{cmp: cmp}
	for _, x := range items {
		s.Add(x)
	}
	return s
}

// Add inserts x unless the set holds it.
func (s *Set) Add(x string) {
	i := 0
	for i < len(s.items) && s.cmp(s.items[i], x) < 0 {
		i++
	}
	if i < len(s.items) && s.cmp(s.items[i], x) == 0 {
		return
	}
	s.items = append(s.items[:i], append([]string{x}, s.items[i:]...)...)
}

// Union returns the strings of both sets in s's order, or nil when they
// are ordered by different comparators.
func (s *Set) Union(o *Set) []string {
	if reflect.ValueOf(s.cmp).Pointer() != reflect.ValueOf(o.cmp).Pointer() {
		return nil
	}
	u := New(s.cmp, s.items...)
	for _, x := range o.items {
		u.Add(x)
	}
	return u.items
}
