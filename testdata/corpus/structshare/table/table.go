// Package table hands out iterators that hold its own map, as gods'
// linkedhashmap does: returned by value, kept by the caller and passed back,
// an iterator reads what the package wrote into the shared map since.
package table

// Map is a table that remembers its keys' insertion order.
type Map struct {
	table map[int]string
	keys  []int
}

// New returns an empty map.
func New() *Map { return &Map{table: map[int]string{}} }

// Put sets k to v.
func (m *Map) Put(k int, v string) {
	if _, ok := m.table[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.table[k] = v
}

// Iterator walks a map's keys in insertion order.
type Iterator struct {
	m     *Map
	i     int
	table map[int]string
}

// Iterator returns an iterator before the first key, holding the map's
// table itself.
func (m *Map) Iterator() Iterator { return Iterator{m: m, i: -1, table: m.table} }

// Next moves to the next key.
func (it *Iterator) Next() bool {
	it.i++
	return it.i < len(it.m.keys)
}

// Begin moves before the first key.
func (it *Iterator) Begin() { it.i = -1 }

// Value is the current key's value, read from the iterator's table.
func (it *Iterator) Value() string { return it.table[it.m.keys[it.i]] }

// Swap puts v at k and returns k's value in the table of it, a copy of an
// iterator of m, before and after.
func (m *Map) Swap(it Iterator, k int, v string) (before, after string) {
	before = it.table[k]
	m.Put(k, v)
	return before, it.table[k]
}
