// Package genericwrite reproduces a fault the study found (golang-lru's
// expirable package: `ent.Value = value` in a method of the generic
// LRU[K, V], ent an *internal.Entry[K, V] of an unobserved package). A
// write of an external field is a WRITE_OUT through a generated helper,
// and the helper, a top-level function, could not name the enclosing
// type parameters: the transform rejected the package ("writing
// (*entry.Entry[K, V]).Value of type parameter V is not supported"). The
// helper is now generic over them, as outcalls' helpers are.
package genericwrite

import "example.com/repros/genericwrite/entry"

// Cache maps keys to entries of the external generic type.
type Cache[K comparable, V any] struct {
	items map[K]*entry.Entry[K, V]
}

// New returns an empty cache.
func New[K comparable, V any]() *Cache[K, V] {
	return &Cache[K, V]{items: map[K]*entry.Entry[K, V]{}}
}

// Put stores v under k, overwriting the entry's value (a write of an
// external field of a type-parameter type) and counting the overwrite
// (a compound write of a field of a generic external type).
func (c *Cache[K, V]) Put(k K, v V) {
	if e, ok := c.items[k]; ok {
		e.Value = v
		e.Hits++
		return
	}
	c.items[k] = &entry.Entry[K, V]{Key: k, Value: v}
}

// Get returns the value under k and how often it was overwritten.
func (c *Cache[K, V]) Get(k K) (v V, hits int, ok bool) {
	e, ok := c.items[k]
	if !ok {
		return v, 0, false
	}
	return e.Value, e.Hits, true
}
