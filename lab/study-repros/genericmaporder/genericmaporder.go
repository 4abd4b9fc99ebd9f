// Package genericmaporder reproduces a fault the study found (golang-lru's
// simplelru: `LRU[K comparable, V any].Purge` ranges over its map[K]...
// calling the eviction callback, a function value from outside, per
// entry). The transform sorts map ranges whose bodies make boundary events
// only for integer and string key types it can see; a key of a type
// parameter kept Go's randomised order, so replay made the callbacks in
// another order than the capture: "different arguments" on the callback's
// outcall. Such ranges now sort at run time when the type argument is an
// integer or a string kind.
package genericmaporder

// Set holds keys and calls a function for each when purged.
type Set[K comparable] struct {
	items map[K]bool
}

// New returns an empty set.
func New[K comparable]() *Set[K] { return &Set[K]{items: map[K]bool{}} }

// Add adds k.
func (s *Set[K]) Add(k K) { s.items[k] = true }

// Purge removes every key, calling evicted for each.
func (s *Set[K]) Purge(evicted func(K)) {
	for k := range s.items {
		evicted(k)
		delete(s.items, k)
	}
}
