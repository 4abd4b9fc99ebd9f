// Package bidi is the observed package of the firstwhole corpus program
// (gods' treebidimap): a struct whose first field is an external tree. An
// incall makes a new struct internally and calls the tree's methods on its
// first field (outcalls whose receiver is at the struct's address) before
// the struct itself leaves as the incall's result; the test then passes the
// struct back.
package bidi

import "example.com/firstwhole/tree"

// Map is a tree and a count of puts.
type Map struct {
	forward tree.Tree
	puts    int
}

// New returns an empty Map.
func New() *Map { return &Map{} }

// Put adds k.
func (m *Map) Put(k string) {
	m.forward.Put(k)
	m.puts++
}

// Map returns a new Map holding f of each key.
func (m *Map) Map(f func(string) string) *Map {
	out := New()
	for _, k := range m.forward.Keys() {
		out.Put(f(k))
	}
	return out
}

// Size returns the number of keys.
func (m *Map) Size() int { return m.forward.Size() }

// Puts returns the number of puts.
func (m *Map) Puts() int { return m.puts }
