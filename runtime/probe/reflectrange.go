package probe

import (
	"cmp"
	"math"
	"reflect"
	"slices"
	"strings"
)

// Observed code that walks a map by reflection (`v.MapKeys()`,
// `v.MapRange()`) gets its entries in Go's randomised map order, and where
// it makes a boundary event per entry (go-toml's encoder calls MarshalText
// on each key of a map keyed by a struct of the test, then sorts the
// strings) it makes them in another order in replay than in the capture,
// which check strict reports. SortedMapKeys and MapRangeOf give the keys in
// an order that is the same in every process wherever the keys have one:
// booleans, numbers other than NaN, strings, structs and arrays of those,
// interfaces holding them (by dynamic type name, then value) and pointers
// to them (by what they point to, which replay rebuilds with the capture's
// contents). Keys without such an order (channels, functions, a NaN, two
// pointers to equal values) keep the map's own order.

// keyOrderDepth bounds how many pointers compareKeys follows from a key:
// a cyclic or very deep key has no order here.
const keyOrderDepth = 8

// compareKeys orders two map keys of one map (values of its key type) by
// what they hold; ok is false when they have no process-independent order.
func compareKeys(a, b reflect.Value, depth int) (c int, ok bool) {
	if a.Kind() == reflect.Interface || b.Kind() == reflect.Interface {
		a, b = underlying(a), underlying(b)
		if !a.IsValid() || !b.IsValid() {
			return cmp.Compare(boolInt(a.IsValid()), boolInt(b.IsValid())), true
		}
		if ta, tb := a.Type(), b.Type(); ta != tb {
			if c := strings.Compare(ta.String(), tb.String()); c != 0 {
				return c, true
			}
			if c := strings.Compare(ta.PkgPath(), tb.PkgPath()); c != 0 {
				return c, true
			}
			return 0, false // two types of one name: no order between them
		}
	}
	switch a.Kind() {
	case reflect.Bool:
		return cmp.Compare(boolInt(a.Bool()), boolInt(b.Bool())), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint()), true
	case reflect.String:
		return strings.Compare(a.String(), b.String()), true
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		if x != x || y != y {
			return 0, false
		}
		return cmp.Compare(x, y), true
	case reflect.Complex64, reflect.Complex128:
		x, y := a.Complex(), b.Complex()
		if x != x || y != y {
			return 0, false
		}
		if c := cmp.Compare(real(x), real(y)); c != 0 {
			return c, true
		}
		return cmp.Compare(imag(x), imag(y)), true
	case reflect.Struct:
		for i := range a.NumField() {
			if c, ok := compareKeys(a.Field(i), b.Field(i), depth); !ok || c != 0 {
				return c, ok
			}
		}
		return 0, true
	case reflect.Array:
		for i := range a.Len() {
			if c, ok := compareKeys(a.Index(i), b.Index(i), depth); !ok || c != 0 {
				return c, ok
			}
		}
		return 0, true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return cmp.Compare(boolInt(!a.IsNil()), boolInt(!b.IsNil())), true
		}
		if depth >= keyOrderDepth {
			return 0, false
		}
		return compareKeys(a.Elem(), b.Elem(), depth+1)
	}
	return 0, false // channels, functions, unsafe pointers
}

// orderable reports whether every part of key k has an order compareKeys
// knows, a NaN anywhere in it excepted (such a key cannot be looked up
// again, so it must come from the map's own iterator), however early
// comparisons would decide.
func orderable(k reflect.Value, depth int) bool {
	switch k.Kind() {
	case reflect.Invalid, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr, reflect.String:
		return true
	case reflect.Float32, reflect.Float64:
		return !math.IsNaN(k.Float())
	case reflect.Complex64, reflect.Complex128:
		c := k.Complex()
		return !math.IsNaN(real(c)) && !math.IsNaN(imag(c))
	case reflect.Interface:
		return k.IsNil() || orderable(k.Elem(), depth)
	case reflect.Struct:
		for i := range k.NumField() {
			if !orderable(k.Field(i), depth) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := range k.Len() {
			if !orderable(k.Index(i), depth) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		return k.IsNil() || depth < keyOrderDepth && orderable(k.Elem(), depth+1)
	}
	return false
}

// sortKeys sorts keys, distinct keys of one map, by compareKeys and reports
// whether it could: every pair ordered, and no two of them equal in that
// order (two pointers to equal values). Otherwise keys keep their order.
func sortKeys(keys []reflect.Value) bool {
	if len(keys) < 2 {
		return true
	}
	for _, k := range keys {
		if !orderable(k, 0) {
			return false
		}
	}
	sorted := slices.Clone(keys)
	ok := true
	slices.SortStableFunc(sorted, func(a, b reflect.Value) int {
		c, o := compareKeys(a, b, 0)
		if !o {
			ok = false
		}
		return c
	})
	if !ok {
		return false
	}
	for i := 1; i < len(sorted); i++ {
		if c, _ := compareKeys(sorted[i-1], sorted[i], 0); c == 0 {
			return false
		}
	}
	copy(keys, sorted)
	return true
}

// SortedMapKeys is v.MapKeys() in the order sortKeys gives, in the capture
// and in replay alike: the transform calls it for every MapKeys call of
// observed code, since code that reflects over a map makes its boundary
// events in the order of the keys (go-spew sorts them through sort.Sort,
// whose callbacks name key indices). Keys without an order that is the
// same in every process keep MapKeys's order.
func SortedMapKeys(v reflect.Value) []reflect.Value {
	keys := v.MapKeys()
	if !enabled.Load() || smpIdle.Load() || len(keys) < 2 {
		return keys
	}
	sortKeys(keys)
	return keys
}

// ReflectMapIter stands for a *reflect.MapIter in observed code: the
// transform makes `it := v.MapRange()` `it := _capture_maprange(v)` where
// `it` is used only through Next, Key, Value and Reset and as the argument
// of SetIterKey and SetIterValue (SetIterKey, SetIterValue below). While
// capturing or replaying it produces the entries in the order
// SortedMapKeys gives; otherwise, and for keys without an order that is
// the same in every process, it is the map's own iterator. As reflect's, it
// produces an entry deleted before it is reached never, and a value
// changed before its entry is reached changed.
type ReflectMapIter struct {
	native   *reflect.MapIter
	m        reflect.Value
	keys     []reflect.Value // still to produce
	key, val reflect.Value   // the current entry
	started  bool
	done     bool
}

// MapRangeOf is v.MapRange() (it panics as MapRange does on a value that is
// not a map) in key order while capturing or replaying.
func MapRangeOf(v reflect.Value) *ReflectMapIter {
	it := &ReflectMapIter{}
	it.start(v, v.MapRange())
	return it
}

// Reset is reflect.MapIter.Reset: the iterator starts over on map v (an
// invalid v releases the map).
func (it *ReflectMapIter) Reset(v reflect.Value) {
	native := new(reflect.MapIter)
	native.Reset(v) // panics, as reflect's, on a value that is not a map
	it.start(v, native)
}

// start makes it iterate over map v, whose own iterator is native: sorted
// keys while capturing or replaying, where they have an order.
func (it *ReflectMapIter) start(v reflect.Value, native *reflect.MapIter) {
	*it = ReflectMapIter{m: v, native: native}
	if !v.IsValid() || !enabled.Load() || smpIdle.Load() || v.Len() < 2 {
		return
	}
	keys := v.MapKeys()
	if sortKeys(keys) {
		it.native, it.keys = nil, keys
	}
}

// Next is reflect.MapIter.Next.
func (it *ReflectMapIter) Next() bool {
	if it.native != nil {
		return it.native.Next()
	}
	if it.done {
		panic("MapIter.Next called on exhausted iterator")
	}
	it.started = true
	for len(it.keys) > 0 {
		k := it.keys[0]
		it.keys = it.keys[1:]
		v := it.m.MapIndex(k)
		if !v.IsValid() {
			continue // deleted by an earlier step
		}
		it.key, it.val = k, v
		return true
	}
	it.key, it.val, it.done = reflect.Value{}, reflect.Value{}, true
	return false
}

// Key is reflect.MapIter.Key.
func (it *ReflectMapIter) Key() reflect.Value {
	if it.native != nil {
		return it.native.Key()
	}
	it.current("MapIter.Key")
	return it.key
}

// Value is reflect.MapIter.Value.
func (it *ReflectMapIter) Value() reflect.Value {
	if it.native != nil {
		return it.native.Value()
	}
	it.current("MapIter.Value")
	return it.val
}

// current panics, as reflect's iterator does, where there is no current
// entry.
func (it *ReflectMapIter) current(method string) {
	if !it.started {
		panic(method + " called before Next")
	}
	if it.done {
		panic(method + " called on exhausted iterator")
	}
}

// SetIterKey is v.SetIterKey(it) for the transform's stand-in of a
// *reflect.MapIter.
func SetIterKey(v reflect.Value, it *ReflectMapIter) {
	if it.native != nil {
		v.SetIterKey(it.native)
		return
	}
	it.current("reflect: Value.SetIterKey")
	v.Set(it.key)
}

// SetIterValue is v.SetIterValue(it) for the transform's stand-in of a
// *reflect.MapIter.
func SetIterValue(v reflect.Value, it *ReflectMapIter) {
	if it.native != nil {
		v.SetIterValue(it.native)
		return
	}
	it.current("reflect: Value.SetIterValue")
	v.Set(it.val)
}
