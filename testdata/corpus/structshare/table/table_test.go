package table_test

import (
	"testing"

	"example.com/structshare/table"
)

// The iterator crosses back (as &it) before the map is filled: the map's
// later writes reach the table it holds.
func TestIteratorBeforePut(t *testing.T) {
	m := table.New()
	it := m.Iterator()
	it.Begin()
	m.Put(3, "c")
	m.Put(1, "a")
	n := 0
	for it.Next() {
		n++
	}
	if n != 2 {
		t.Fatalf("%d keys", n)
	}
	it.Begin()
	it.Next()
	if v := it.Value(); v != "c" {
		t.Fatalf("Value() = %q", v)
	}
	m.Put(3, "C")
	if v := it.Value(); v != "C" {
		t.Fatalf("Value() = %q after Put", v)
	}
}

// The iterator crosses by value to a method that writes the map and reads
// through the iterator's table.
func TestIteratorByValue(t *testing.T) {
	m := table.New()
	it := m.Iterator()
	m.Put(1, "a")
	if b, a := m.Swap(it, 1, "A"); b != "a" || a != "A" {
		t.Fatalf("Swap(1) = %q, %q", b, a)
	}
	if b, a := m.Swap(it, 2, "b"); b != "" || a != "b" {
		t.Fatalf("Swap(2) = %q, %q", b, a)
	}
}

// Two iterators of two empty maps: equal contents, different tables.
func TestTwoIterators(t *testing.T) {
	a, b := table.New(), table.New()
	ia, ib := a.Iterator(), b.Iterator()
	ia.Begin()
	ib.Begin()
	a.Put(1, "a")
	b.Put(1, "b")
	ia.Next()
	ib.Next()
	if v := ia.Value(); v != "a" {
		t.Fatalf("a: Value() = %q", v)
	}
	if v := ib.Value(); v != "b" {
		t.Fatalf("b: Value() = %q", v)
	}
}
