package probe

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

type rangeKey struct {
	A string
	B int
	c [2]float64
}

// TestMapRangeOfOrdersStructPointerAndInterfaceKeys: MapRangeOf and
// SortedMapKeys produce keys of structs, of pointers to distinct values and
// of interfaces in one order every time while capturing or replaying.
func TestMapRangeOfOrdersStructPointerAndInterfaceKeys(t *testing.T) {
	sortedOn(t)
	structs := map[rangeKey]int{}
	ptrs := map[*rangeKey]int{}
	ifaces := map[any]int{}
	for i := range 30 {
		k := rangeKey{A: string(rune('a' + i%4)), B: 30 - i, c: [2]float64{float64(i % 3), 1}}
		structs[k] = i
		ptrs[&k] = i
		ifaces[i] = i
		ifaces[k.A+"x"] = i
	}
	want := func(m reflect.Value) []string {
		var out []string
		for it := MapRangeOf(m); it.Next(); {
			out = append(out, reflect.ValueOf(it.Key().Interface()).String()+"="+it.Value().String())
		}
		return out
	}
	for _, m := range []any{structs, ptrs, ifaces} {
		v := reflect.ValueOf(m)
		first := want(v)
		if len(first) != v.Len() {
			t.Fatalf("%T: %d entries, want %d", m, len(first), v.Len())
		}
		for range 20 { // native order is randomised: one pass could agree by chance
			if got := want(v); !slices.Equal(got, first) {
				t.Fatalf("%T: order changed:\n%v\n%v", m, first, got)
			}
			keys := SortedMapKeys(v)
			it := MapRangeOf(v)
			for i := 0; it.Next(); i++ {
				if keys[i].Interface() != it.Key().Interface() {
					t.Fatalf("%T: MapKeys and MapRange differ at %d", m, i)
				}
			}
		}
	}
	// The order is the keys' own: by A, then B.
	var got []rangeKey
	for it := MapRangeOf(reflect.ValueOf(structs)); it.Next(); {
		got = append(got, it.Key().Interface().(rangeKey))
	}
	if !slices.IsSortedFunc(got, func(a, b rangeKey) int {
		if c := strings.Compare(a.A, b.A); c != 0 {
			return c
		}
		return a.B - b.B
	}) {
		t.Fatalf("struct keys out of order: %v", got)
	}
}

// TestMapRangeOfKeepsNativeOrderWithoutAnOrder: keys with no order that is
// the same in every process (two pointers to equal values, a NaN inside a
// struct, channels) are produced as reflect produces them, all of them.
func TestMapRangeOfKeepsNativeOrderWithoutAnOrder(t *testing.T) {
	sortedOn(t)
	a, b := &rangeKey{A: "x"}, &rangeKey{A: "x"}
	equalPtrs := map[*rangeKey]int{a: 1, b: 2, {A: "y"}: 3}
	nan := map[rangeKey]int{{c: [2]float64{math.NaN()}}: 1, {B: 1}: 2}
	chans := map[chan int]int{make(chan int): 1, make(chan int): 2}
	for _, m := range []any{equalPtrs, nan, chans} {
		v := reflect.ValueOf(m)
		if it := MapRangeOf(v); it.native == nil {
			t.Errorf("%T: sorted", m)
		}
		n := 0
		for it := MapRangeOf(v); it.Next(); {
			n++
		}
		if n != v.Len() {
			t.Errorf("%T: %d entries, want %d", m, n, v.Len())
		}
	}
}

// TestMapRangeOfIteratorSemantics: entries deleted before they are reached
// are skipped, changed values are seen, SetIterKey and SetIterValue set
// the current entry, Reset starts over, and misuse panics as reflect's
// iterator does.
func TestMapRangeOfIteratorSemantics(t *testing.T) {
	sortedOn(t)
	m := map[string]int{"a": 1, "b": 2, "c": 3, "d": 4}
	v := reflect.ValueOf(m)
	it := MapRangeOf(v)
	k := reflect.New(reflect.TypeFor[string]()).Elem()
	e := reflect.New(reflect.TypeFor[int]()).Elem()
	var got []string
	for it.Next() {
		SetIterKey(k, it)
		SetIterValue(e, it)
		if k.String() == "a" {
			delete(m, "c")
			m["d"] = 40
		}
		got = append(got, k.String()+"="+e.String())
	}
	if want := []string{"a=<int Value>", "b=<int Value>", "d=<int Value>"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if e.Int() != 40 {
		t.Fatalf("changed value not seen: %d", e.Int())
	}
	mustPanic(t, "MapIter.Key called on exhausted iterator", func() { it.Key() })
	mustPanic(t, "MapIter.Next called on exhausted iterator", func() { it.Next() })
	it.Reset(v)
	mustPanic(t, "MapIter.Value called before Next", func() { it.Value() })
	mustPanic(t, "reflect: Value.SetIterKey called before Next", func() { SetIterKey(k, it) })
	if !it.Next() || it.Key().String() != "a" {
		t.Fatal("Reset did not start over")
	}
	mustPanic(t, "reflect: call of reflect.Value.MapRange on int Value", func() { MapRangeOf(reflect.ValueOf(1)) })
}

func mustPanic(t *testing.T, msg string, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		var s string
		switch r := r.(type) {
		case string:
			s = r
		case error:
			s = r.Error()
		}
		if s != msg {
			t.Errorf("panic %q, want %q", r, msg)
		}
	}()
	f()
}
