// Package mapkeys reduces gods' hashmap (maps/hashmap observed: Keys and
// Values at hashmap.go:60 and :71, 6 of 432 logs): a map of interface keys
// whose keys the package returns in the order it ranged over them, in a
// loop that makes no boundary event.
package mapkeys

// Map holds the entries in a native map, as gods' hashmap.Map.
type Map struct {
	m map[interface{}]interface{}
}

// New returns an empty Map.
func New() *Map { return &Map{m: make(map[interface{}]interface{})} }

// Put sets key to value.
func (m *Map) Put(key, value interface{}) { m.m[key] = value }

// Keys returns all keys (random order).
func (m *Map) Keys() []interface{} {
	keys := make([]interface{}, len(m.m))
	count := 0
	for key := range m.m {
		keys[count] = key
		count++
	}
	return keys
}
