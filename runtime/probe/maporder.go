package probe

import (
	"cmp"
	"iter"
	"reflect"
	"slices"
	"strings"
)

// SortedMap iterates over m in ascending key order. The transform ranges
// through it, in the capture and the replay build alike, over maps with
// ordered keys in observed code whose loop body can make boundary events:
// Go leaves map iteration order unspecified (and randomises it), so native
// iteration would make those events in another order in replay than in the
// capture, which check strict reports (toml's decoder makes reflect
// outcalls per key of the table it ranges over).
// Loops whose bodies cannot cross the boundary keep native iteration.
//
// It keeps range's semantics: m is evaluated once, an entry deleted before
// it is reached is not produced, a value changed before its entry is reached
// is produced changed; entries added during the iteration are not produced
// (the spec allows either).
func SortedMap[M ~map[K]V, K cmp.Ordered, V any](m M) iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		if !enabled.Load() {
			// Nothing is recorded or replayed: native order is as good.
			for k, v := range m {
				if !yield(k, v) {
					return
				}
			}
			return
		}
		if len(m) == 0 {
			return
		}
		keys := make([]K, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		yieldInOrder(m, keys, yield)
	}
}

// SortedMapOf is SortedMap for maps whose key type is a type parameter
// (golang-lru's simplelru.LRU[K comparable, V any] ranges over its
// map[K]*Entry[K, V] calling the eviction callback). The
// transform cannot tell whether such keys sort; at run time, keys whose
// kind is an integer or a string (int, a named string type) iterate in
// ascending order, as SortedMap's; other keys (pointers, structs, floats,
// interfaces) keep native order, the documented limitation.
func SortedMapOf[M ~map[K]V, K comparable, V any](m M) iter.Seq2[K, V] {
	compare := keyCompare[K]()
	if !enabled.Load() || compare == nil {
		return func(yield func(K, V) bool) {
			for k, v := range m {
				if !yield(k, v) {
					return
				}
			}
		}
	}
	return func(yield func(K, V) bool) {
		keys := make([]K, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, compare)
		yieldInOrder(m, keys, yield)
	}
}

// yieldInOrder produces m's entries in the order of keys, skipping entries
// deleted by an earlier step, until yield says stop.
func yieldInOrder[M ~map[K]V, K comparable, V any](m M, keys []K, yield func(K, V) bool) {
	for _, k := range keys {
		v, ok := m[k]
		if !ok {
			continue // deleted by an earlier step
		}
		if !yield(k, v) {
			return
		}
	}
}

// keyCompare orders keys of type K by their integer or string value, or
// returns nil when K's kind has no order that is the same in every process.
func keyCompare[K comparable]() func(a, b K) int {
	switch reflect.TypeFor[K]().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(a, b K) int { return cmp.Compare(reflect.ValueOf(a).Int(), reflect.ValueOf(b).Int()) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(a, b K) int { return cmp.Compare(reflect.ValueOf(a).Uint(), reflect.ValueOf(b).Uint()) }
	case reflect.String:
		return func(a, b K) int { return strings.Compare(reflect.ValueOf(a).String(), reflect.ValueOf(b).String()) }
	}
	return nil
}

// Ordered is cmp.Ordered, for generated code (which imports only probe).
type Ordered = cmp.Ordered
