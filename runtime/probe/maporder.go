package probe

import (
	"cmp"
	"iter"
	"slices"
)

// SortedMap iterates over m in ascending key order. The transform ranges
// through it, in the capture and the replay build alike, over maps with
// ordered keys in observed code whose loop body can make boundary events:
// Go leaves map iteration order unspecified (and randomises it), so native
// iteration would make those events in another order in replay than in the
// capture, which check strict reports (study fault F27, toml's decoder).
// Loops whose bodies cannot cross the boundary keep native iteration.
//
// It keeps range's semantics: m is evaluated once, an entry deleted before
// it is reached is not produced, a value changed before its entry is reached
// is produced changed; entries added during the iteration are not produced
// (the spec allows either).
func SortedMap[M ~map[K]V, K cmp.Ordered, V any](m M) iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		if !enabled {
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
}

// Ordered is cmp.Ordered, for generated code (which imports only probe).
type Ordered = cmp.Ordered
