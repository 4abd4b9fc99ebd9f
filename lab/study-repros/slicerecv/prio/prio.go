// Package prio is the unobserved package: a slice type whose method sorts
// the slice in place (goldmark's util.PrioritizedSlice).
package prio

import "sort"

// Value is a value with a priority.
type Value struct {
	Name     string
	Priority int
}

// Slice is a slice of prioritized values.
type Slice []Value

// Sort sorts the slice by priority, highest first, in place.
func (s Slice) Sort() {
	sort.SliceStable(s, func(i, j int) bool { return s[i].Priority > s[j].Priority })
}
