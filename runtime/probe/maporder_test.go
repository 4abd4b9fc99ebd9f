package probe

import (
	"slices"
	"strconv"
	"testing"
)

// sortedOn makes SortedMap sort, as it does while capturing or replaying.
func sortedOn(tb testing.TB) {
	old := enabled
	enabled = true
	tb.Cleanup(func() { enabled = old })
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
