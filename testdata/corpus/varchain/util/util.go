// Package util is external code shaped like goldmark's util.BytesFilter.
package util

import (
	"sort"
	"strings"
)

// A BytesFilter is a set of names.
type BytesFilter interface {
	Contains(b []byte) bool
	ExtendString(s string) BytesFilter
	String() string
}

type filter map[string]bool

// NewBytesFilterString returns the filter of the comma-separated names.
func NewBytesFilterString(s string) BytesFilter {
	return filter{}.ExtendString(s)
}

func (f filter) Contains(b []byte) bool { return f[string(b)] }

func (f filter) ExtendString(s string) BytesFilter {
	g := filter{}
	for k := range f {
		g[k] = true
	}
	for _, x := range strings.Split(s, ",") {
		g[x] = true
	}
	return g
}

func (f filter) String() string {
	var names []string
	for k := range f {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}
