// Package util is external code that keeps the observed package's values
// (goldmark's util.Prioritized and util.PrioritizedSlice).
package util

import "sort"

// A PrioritizedValue is a value with a priority.
type PrioritizedValue struct {
	Value    any
	Priority int
}

// Prioritized pairs v with a priority.
func Prioritized(v any, priority int) PrioritizedValue {
	return PrioritizedValue{Value: v, Priority: priority}
}

// Sort sorts the values by priority, highest first.
func Sort(vs []PrioritizedValue) {
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].Priority > vs[j].Priority })
}

// A Context is an empty handle external code gives out (goldmark's
// parser.NewContext with no options is a larger struct; an empty one is
// the case here).
type Context struct{}

// NewContext returns a new context.
func NewContext() *Context { return &Context{} }

// Name is the context's name.
func (*Context) Name() string { return "ctx" }
