package tree_test

import (
	"testing"

	"example.com/funccode/cmps"
	"example.com/funccode/tree"
)

// The test's comparator crosses first; the package's own is the same
// function.
func TestOneComparator(t *testing.T) {
	a := tree.NewWith(cmps.Strings)
	b := tree.NewWithStrings()
	b.Put("b")
	b.Put("a")
	if k := b.Keys(); len(k) != 2 || k[0] != "a" {
		t.Fatal(k)
	}
	if !a.SameOrder(b) || !b.SameOrder(a) {
		t.Fatal("two comparators")
	}
}

// Two comparators of one type, one of them the package's.
func TestTwoComparators(t *testing.T) {
	rev := func(a, b any) int { return cmps.Strings(b, a) }
	a := tree.NewWith(rev)
	b := tree.NewWithStrings()
	if a.SameOrder(b) {
		t.Fatal("one comparator")
	}
	a.Put("a")
	a.Put("b")
	if k := a.Keys(); k[0] != "b" {
		t.Fatal(k)
	}
}
