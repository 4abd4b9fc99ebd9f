package probe

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// sortedOn makes SortedMap sort, as it does while capturing or replaying.
func sortedOn(tb testing.TB) {
	old := enabled.Load()
	enabled.Store(true)
	tb.Cleanup(func() { enabled.Store(old) })
}

func TestSortedMapOrder(t *testing.T) {
	sortedOn(t)
	type name string
	m := map[name]int{"c": 3, "a": 1, "d": 4, "b": 2}
	for range 20 { // native order is randomised: one pass could agree by chance
		var got []name
		for k, v := range SortedMap(m) {
			if m[k] != v {
				t.Fatalf("value of %q: %d, want %d", k, v, m[k])
			}
			got = append(got, k)
		}
		if want := []name{"a", "b", "c", "d"}; !slices.Equal(got, want) {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
}

// TestSortedMapRangeSemantics: deletions and updates made by the loop body
// are seen as range sees them; break stops; a nil map yields nothing.
func TestSortedMapRangeSemantics(t *testing.T) {
	sortedOn(t)
	m := map[int]string{1: "one", 2: "two", 3: "three", 4: "four"}
	var got []string
	for k, v := range SortedMap(m) {
		if k == 1 {
			delete(m, 3)
			m[2] = "TWO"
			m[0] = "zero" // added: not produced (allowed by the spec)
		}
		got = append(got, v)
	}
	if want := []string{"one", "TWO", "four"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	n := 0
	for range SortedMap(m) {
		n++
		break
	}
	var nilMap map[string]int
	for range SortedMap(nilMap) {
		n++
	}
	if n != 1 {
		t.Fatalf("%d steps, want 1 (break after the first, none for nil)", n)
	}
}

// TestMapIter: the stepping iterator of files without range over
// functions produces entries as SortedMap does while capturing (ascending,
// deletions and updates seen, nil pointers for unnamed variables), and
// otherwise every entry once in the runtime's order, NaN keys included.
func TestMapIter(t *testing.T) {
	t.Run("sorted", func(t *testing.T) {
		sortedOn(t)
		m := map[int]string{3: "three", 1: "one", 4: "four", 2: "two"}
		var got []string
		it, k, v := SortedMapIter(m), 0, ""
		for it.Next(&k, &v) {
			if k == 1 {
				delete(m, 3)
				m[2] = "TWO"
			}
			got = append(got, strconv.Itoa(k)+v)
		}
		if want := []string{"1one", "2TWO", "4four"}; !slices.Equal(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
		var keys []int
		for it := SortedMapIter(m); it.Next(&k, nil); {
			keys = append(keys, k)
		}
		if !slices.Equal(keys, []int{1, 2, 4}) {
			t.Fatalf("keys %v", keys)
		}
		n := 0
		for it := SortedMapIter(map[string]int(nil)); it.Next(nil, nil); {
			n++
		}
		if n != 0 {
			t.Fatalf("%d steps over a nil map", n)
		}
	})
	t.Run("type parameter keys", func(t *testing.T) {
		sortedOn(t)
		type name string
		m := map[name]int{"c": 3, "a": 1, "b": 2}
		var got []name
		var k name
		for it := MapIterOf(m); it.Next(&k, nil); {
			got = append(got, k)
		}
		if !slices.Equal(got, []name{"a", "b", "c"}) {
			t.Fatalf("order %v", got)
		}
	})
	t.Run("native", func(t *testing.T) {
		nan := math.NaN()
		m := map[float64]int{nan: 1, 1.5: 2, nan * 2: 3}
		sum, n := 0, 0
		var k float64
		var v int
		for it := MapIterOf(m); it.Next(&k, &v); {
			sum += v
			n++
		}
		if n != 3 || sum != 6 {
			t.Fatalf("%d entries summing to %d, want 3 and 6", n, sum)
		}
		old := enabled.Load()
		enabled.Store(false)
		defer enabled.Store(old)
		s := map[string]int{"x": 1, "y": 2}
		seen := map[string]int{}
		var ks string
		for it := SortedMapIter(s); it.Next(&ks, &v); {
			seen[ks] = v
			delete(s, "y") // reached or not: never produced after its deletion
		}
		if seen["x"] != 1 || len(seen) == 2 && seen["y"] != 2 {
			t.Fatalf("native steps produced %v", seen)
		}
	})
}

// BenchmarkMapRange: what sorted iteration costs over native iteration, for
// a loop body that does almost nothing (the worst case: the transform sorts
// only loops whose bodies make calls, which cost more than this).
func BenchmarkMapRange(b *testing.B) {
	sortedOn(b)
	for _, n := range []int{8, 64, 1024} {
		m := make(map[string]int, n)
		for i := range n {
			m["key"+strconv.Itoa(i)] = i
		}
		b.Run("native/"+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sum := 0
				for _, v := range m {
					sum += v
				}
				mapSink = sum
			}
		})
		b.Run("sorted/"+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sum := 0
				for _, v := range SortedMap(m) {
					sum += v
				}
				mapSink = sum
			}
		})
	}
}

var mapSink int

// TestSortedMapOfOrdersIntegerAndStringKinds: a map whose key type is a
// type parameter iterates in key order when the keys' kind is an integer
// or a string (golang-lru's LRU[K comparable, V any] once evicted in map
// order: study repro genericmaporder), and in native order otherwise.
func TestSortedMapOfOrdersIntegerAndStringKinds(t *testing.T) {
	sortedOn(t)
	ints := map[int64]bool{}
	for i := range 50 {
		ints[int64(i*7%50-20)] = true
	}
	type name string
	names := map[name]int{"c": 3, "a": 1, "d": 4, "b": 2}
	type small uint8
	smalls := map[small]int{200: 1, 3: 2, 90: 3}
	for range 20 { // native order is randomised: one pass could agree by chance
		var gotInts []int64
		for k := range SortedMapOf(ints) {
			gotInts = append(gotInts, k)
		}
		if !slices.IsSorted(gotInts) || len(gotInts) != 50 {
			t.Fatalf("int64 keys: %v", gotInts)
		}
		var gotNames []name
		for k, v := range SortedMapOf(names) {
			if names[k] != v {
				t.Fatalf("value of %q: %d", k, v)
			}
			gotNames = append(gotNames, k)
		}
		if want := []name{"a", "b", "c", "d"}; !slices.Equal(gotNames, want) {
			t.Fatalf("named string keys: %v, want %v", gotNames, want)
		}
		var gotSmall []small
		for k := range SortedMapOf(smalls) {
			gotSmall = append(gotSmall, k)
		}
		if want := []small{3, 90, 200}; !slices.Equal(gotSmall, want) {
			t.Fatalf("uint8 keys: %v, want %v", gotSmall, want)
		}
	}
	type point struct{ x, y int }
	pts := map[point]int{{1, 2}: 1, {0, 0}: 2, {3, 1}: 3}
	n := 0
	for k, v := range SortedMapOf(pts) {
		if pts[k] != v {
			t.Fatalf("value of %v: %d", k, v)
		}
		n++
	}
	if n != 3 {
		t.Fatalf("struct keys: %d entries, want 3", n)
	}
	// Deleted before reached: not produced.
	m := map[int]string{1: "one", 2: "two", 3: "three"}
	var got []string
	for k, v := range SortedMapOf(m) {
		if k == 1 {
			delete(m, 2)
		}
		got = append(got, v)
	}
	if want := []string{"one", "three"}; !slices.Equal(got, want) {
		t.Fatalf("with a deletion: %v, want %v", got, want)
	}
}

// TestSortedMapOfInterfaceKeys: a map whose keys are interface values
// (gods' hashmap, map[interface{}]interface{}) iterates by the dynamic
// type's name, then by value, when every key holds an integer, a string or
// a boolean, and in native order when one holds anything else; MapIterOf
// (files before go1.23) agrees.
func TestSortedMapOfInterfaceKeys(t *testing.T) {
	sortedOn(t)
	m := map[any]int{}
	for i := range 20 {
		m[i*7%20] = i
		m[string(rune('a'+i))] = i
	}
	m[true] = 1
	m[nil] = 0
	m[uint8(3)] = 2
	m[2.5] = 3
	m[-1.0] = 4
	want := []any{nil, true, -1.0, 2.5} // "bool" < "float64" < "int"
	for i := range 20 {
		want = append(want, i)
	}
	for i := range 20 {
		want = append(want, string(rune('a'+i)))
	}
	want = append(want, uint8(3)) // "int" < "string" < "uint8"
	for range 10 {
		var got []any
		for k, v := range SortedMapOf(m) {
			if m[k] != v {
				t.Fatalf("value of %v: %d", k, v)
			}
			got = append(got, k)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("SortedMapOf: %v\nwant %v", got, want)
		}
		got = got[:0]
		var k any
		var v int
		for it := MapIterOf(m); it.Next(&k, &v); {
			got = append(got, k)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("MapIterOf: %v\nwant %v", got, want)
		}
	}
	type point struct{ x, y int }
	nan := math.NaN()
	for _, mixed := range []map[any]int{{1: 1, "a": 2, point{1, 2}: 3}, {1: 1, "a": 2, nan: 3}} {
		n := 0
		for k, v := range SortedMapOf(mixed) {
			if k == k && mixed[k] != v {
				t.Fatalf("value of %v: %d", k, v)
			}
			n++
		}
		if n != 3 {
			t.Fatalf("a key without order (%v): %d entries, want 3", mixed, n)
		}
	}
}

// Keys of type reflect.Value (mapstructure's map[reflect.Value]struct{} of
// a map's MapKeys, ranged with an early break) sort by the values they
// refer to, through interfaces, in SortedMapOf and MapIterOf alike.
func TestSortedMapOfReflectValueKeys(t *testing.T) {
	sortedOn(t)
	src := map[any]int{"b": 1, "a": 2, "c": 3, 1: 4}
	m := map[reflect.Value]struct{}{}
	for _, k := range reflect.ValueOf(src).MapKeys() {
		m[k] = struct{}{}
	}
	want := []string{"1", "a", "b", "c"} // "int" < "string"
	for range 10 {
		var got, stepped []string
		for k := range SortedMapOf(m) {
			got = append(got, fmt.Sprint(k.Interface()))
		}
		it := MapIterOf(m)
		var k reflect.Value
		for it.Next(&k, nil) {
			stepped = append(stepped, fmt.Sprint(k.Interface()))
		}
		if !slices.Equal(got, want) || !slices.Equal(stepped, want) {
			t.Fatalf("order %v, stepped %v, want %v", got, stepped, want)
		}
	}
}
