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
		if !enabled.Load() || smpIdle.Load() { // outside a sampled window nothing is recorded: native order
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
//
// Keys of an interface type (gods' map[interface{}]interface{}) are sorted
// when every key's dynamic value is an integer, a float other than NaN, a
// string or a boolean (or nil): by the dynamic type's name, then by value.
// A map holding any other key keeps native order.
func SortedMapOf[M ~map[K]V, K comparable, V any](m M) iter.Seq2[K, V] {
	compare := keyCompare[K]()
	native := func(yield func(K, V) bool) {
		for k, v := range m {
			if !yield(k, v) {
				return
			}
		}
	}
	if !enabled.Load() || smpIdle.Load() || compare == nil {
		return native
	}
	return func(yield func(K, V) bool) {
		keys := make([]K, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		if !sortableKeys(keys) {
			native(yield)
			return
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
	if reflect.TypeFor[K]() == reflectValueType {
		// reflect.Value keys (mapstructure's map[reflect.Value]struct{}
		// of MapKeys): by the values they refer to, as interface keys.
		return func(a, b K) int { return compareValues(any(a).(reflect.Value), any(b).(reflect.Value)) }
	}
	switch reflect.TypeFor[K]().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(a, b K) int { return cmp.Compare(reflect.ValueOf(a).Int(), reflect.ValueOf(b).Int()) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(a, b K) int { return cmp.Compare(reflect.ValueOf(a).Uint(), reflect.ValueOf(b).Uint()) }
	case reflect.String:
		return func(a, b K) int { return strings.Compare(reflect.ValueOf(a).String(), reflect.ValueOf(b).String()) }
	case reflect.Interface:
		return func(a, b K) int { return compareDynamic(any(a), any(b)) }
	}
	return nil
}

// sortableKeys reports whether keys of an interface type all hold values
// compareDynamic orders, NaN excepted (true for keys of any other type
// keyCompare accepts).
func sortableKeys[K comparable](keys []K) bool {
	if reflect.TypeFor[K]() == reflectValueType {
		for _, k := range keys {
			v := underlying(any(k).(reflect.Value))
			if !v.IsValid() {
				continue
			}
			r := dynamicRank(v.Kind())
			if r < 0 || r == rankFloat && v.Float() != v.Float() {
				return false
			}
		}
		return true
	}
	if reflect.TypeFor[K]().Kind() != reflect.Interface {
		return true
	}
	for _, k := range keys {
		x := any(k)
		if x == nil {
			continue
		}
		v := reflect.ValueOf(x)
		r := dynamicRank(v.Kind())
		if r < 0 || r == rankFloat && v.Float() != v.Float() {
			return false // no order, or a NaN key, which cannot be looked up again
		}
	}
	return true
}

// dynamicRank classes the kinds compareDynamic orders (-1: none).
func dynamicRank(k reflect.Kind) int {
	switch k {
	case reflect.Bool:
		return 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return 1
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return 2
	case reflect.String:
		return 3
	case reflect.Float32, reflect.Float64:
		return rankFloat
	}
	return -1
}

const rankFloat = 4

// compareDynamic orders two interface keys of the kinds dynamicRank
// classes: nil first, then by dynamic type name, then by value, the same
// in every process.
func compareDynamic(a, b any) int {
	return compareValues(reflect.ValueOf(a), reflect.ValueOf(b))
}

// reflectValueType is reflect.Value's type.
var reflectValueType = reflect.TypeFor[reflect.Value]()

// underlying is what a reflect.Value key refers to, through interfaces (a
// key of a map[interface{}]T that MapKeys returns is of kind Interface).
func underlying(v reflect.Value) reflect.Value {
	for v.IsValid() && v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	return v
}

// compareValues orders two reflect.Value keys by what they refer to, as
// compareDynamic orders interface keys: invalid (or nil) first, then by
// type name, then by value. Read-only values compare too: nothing here
// needs their interface.
func compareValues(a, b reflect.Value) int {
	va, vb := underlying(a), underlying(b)
	if !va.IsValid() || !vb.IsValid() {
		return cmp.Compare(boolInt(va.IsValid()), boolInt(vb.IsValid()))
	}
	if ta, tb := va.Type(), vb.Type(); ta != tb {
		if c := strings.Compare(ta.String(), tb.String()); c != 0 {
			return c
		}
		return strings.Compare(ta.PkgPath(), tb.PkgPath())
	}
	switch dynamicRank(va.Kind()) {
	case 0:
		return cmp.Compare(boolInt(va.Bool()), boolInt(vb.Bool()))
	case 1:
		return cmp.Compare(va.Int(), vb.Int())
	case 2:
		return cmp.Compare(va.Uint(), vb.Uint())
	case rankFloat:
		return cmp.Compare(va.Float(), vb.Float())
	default:
		return strings.Compare(va.String(), vb.String())
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Ordered is cmp.Ordered, for generated code (which imports only probe).
type Ordered = cmp.Ordered

// MapIter steps through a map for loops of files whose language version
// has no range over functions (before go1.23), where the transform cannot
// range over SortedMap's iterator. It rewrites the loop into a three-clause
// for statement whose init declares the range's variables,
//
//	for k, v := range m   ->   for _capture_it, k, v := _capture_iter(m); _capture_it.Next(&k, &v); {
//
// which keeps each language version's sharing of the loop variables (one
// pair for the whole loop before go1.22, one per iteration since) and
// leaves break, continue, labels, goto and return as they were.
// It iterates as SortedMap does: in ascending key order while capturing
// or replaying, m evaluated once, an entry deleted before it is reached not
// produced, a value changed before its entry is reached produced changed.
// Otherwise, and for keys without an order that is the same in every
// process, it follows the runtime's own iteration (exactly range's
// semantics, NaN keys included).
type MapIter[K comparable, V any] struct {
	m      map[K]V
	keys   []K              // the keys still to produce, in order (sorted)
	native *reflect.MapIter // the runtime's iteration (not sorted)
}

// SortedMapIter returns the MapIter of a map with ordered keys.
func SortedMapIter[M ~map[K]V, K cmp.Ordered, V any](m M) *MapIter[K, V] {
	it := &MapIter[K, V]{m: m}
	if !enabled.Load() || smpIdle.Load() { // outside a sampled window nothing is recorded: native order
		it.native = reflect.ValueOf(map[K]V(m)).MapRange()
		return it
	}
	it.keys = make([]K, 0, len(m))
	for k := range m {
		it.keys = append(it.keys, k)
	}
	slices.Sort(it.keys)
	return it
}

// MapIterOf is SortedMapIter for maps whose key type is a type parameter
// or an interface: keys of an integer or string kind, and interface keys
// holding integers, floats, strings or booleans, are sorted, as
// SortedMapOf's are.
func MapIterOf[M ~map[K]V, K comparable, V any](m M) *MapIter[K, V] {
	it := &MapIter[K, V]{m: m}
	compare := keyCompare[K]()
	if !enabled.Load() || smpIdle.Load() || compare == nil {
		it.native = reflect.ValueOf(map[K]V(m)).MapRange()
		return it
	}
	it.keys = make([]K, 0, len(m))
	for k := range m {
		it.keys = append(it.keys, k)
	}
	if !sortableKeys(it.keys) {
		it.keys = nil
		it.native = reflect.ValueOf(map[K]V(m)).MapRange()
		return it
	}
	slices.SortFunc(it.keys, compare)
	return it
}

// Next stores the next entry in *k and *v (a nil pointer: the loop does not
// name that variable) and reports whether there was one.
func (it *MapIter[K, V]) Next(k *K, v *V) bool {
	if it.native != nil {
		if !it.native.Next() {
			return false
		}
		if k != nil {
			reflect.ValueOf(k).Elem().SetIterKey(it.native)
		}
		if v != nil {
			reflect.ValueOf(v).Elem().SetIterValue(it.native)
		}
		return true
	}
	for len(it.keys) > 0 {
		key := it.keys[0]
		it.keys = it.keys[1:]
		val, ok := it.m[key]
		if !ok {
			continue // deleted by an earlier step
		}
		if k != nil {
			*k = key
		}
		if v != nil {
			*v = val
		}
		return true
	}
	return false
}
