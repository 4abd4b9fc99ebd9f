// Package firstwhole reduces gods' maps/treebidimap (TestMapMap,
// TestMapSelect, TestMapChaining: 3 of 432 logs): Map makes a new map
// inside the incall and puts into its first field, an external tree
// (outcalls whose receiver is at the new map's address), before the new map
// is the incall's result; the test then calls a method on it.
package firstwhole

import "example.com/repros/firstwhole/tree"

// Map is a tree first.
type Map struct {
	forward tree.Tree
	n       int
}

// New returns an empty Map.
func New() *Map { return &Map{} }

// Put adds k.
func (m *Map) Put(k interface{}) {
	m.forward.Put(k)
	m.n++
}

// Map returns a new Map with f of each of the keys given.
func (m *Map) Map(f func(interface{}) interface{}, keys ...interface{}) *Map {
	out := New()
	for _, k := range keys {
		out.Put(f(k))
	}
	return out
}

// Size returns the number of keys.
func (m *Map) Size() int { return m.forward.Size() }
