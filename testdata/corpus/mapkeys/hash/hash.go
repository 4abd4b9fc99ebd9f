// Package hash is the observed package of the mapkeys corpus program: maps
// whose iteration order leaves the observed code in its results, although
// the loops that range over them make no boundary event (gods' hashmap
// Keys and Values). Its go line (1.16) has neither generics nor range over
// functions, so the loops step through per-site iterators.
package hash

// Map is a map of interface keys, as gods' hashmap.Map.
type Map struct {
	m map[interface{}]interface{}
}

// New returns an empty Map.
func New() *Map { return &Map{m: make(map[interface{}]interface{})} }

// Put sets key to value.
func (m *Map) Put(key, value interface{}) { m.m[key] = value }

// Keys returns the keys in the map's order.
func (m *Map) Keys() []interface{} {
	keys := make([]interface{}, len(m.m))
	count := 0
	for key := range m.m {
		keys[count] = key
		count++
	}
	return keys
}

// First returns a key of the map, the first its range produces.
func (m *Map) First() interface{} {
	for key := range m.m {
		return key
	}
	return nil
}

// Set is a set of strings.
type Set struct {
	items map[string]struct{}
}

// NewSet returns a set of items.
func NewSet(items ...string) *Set {
	s := &Set{items: map[string]struct{}{}}
	for _, it := range items {
		s.items[it] = struct{}{}
	}
	return s
}

// Values returns the items in the set's order.
func (s *Set) Values() []string {
	var out []string
	for it := range s.items {
		out = append(out, it)
	}
	return out
}
