package probe

import (
	"reflect"
	"testing"
	"unsafe"
)

// The capture knows an array by its end: every subslice of a slice names
// it, a three-index slice that moves the end does not, and neither does
// the same memory seen as elements of another type.
func TestArraysKnownByTheirEnd(t *testing.T) {
	o := newObjects()
	id := func(s []int32) uint64 {
		return o.array(unsafe.Pointer(unsafe.SliceData(s)), cap(s), reflect.TypeFor[int32]())
	}
	a := make([]int32, 8)
	b := make([]int32, 8)
	ida := id(a)
	if ida == 0 || id(a[3:5]) != ida || id(a[7:]) != ida || id(a[:0]) != ida {
		t.Fatalf("subslices of one array: %d, %d, %d, %d", ida, id(a[3:5]), id(a[7:]), id(a[:0]))
	}
	if idb := id(b); idb == 0 || idb == ida {
		t.Fatalf("another array: %d (the first %d)", idb, ida)
	}
	if short := id(a[2:4:6]); short == ida || short == 0 {
		t.Fatalf("a three-index slice ending elsewhere: %d", short)
	}
	if got := id(a[8:]); got != 0 {
		t.Fatalf("a slice of zero capacity: %d", got)
	}
	bytes := unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), 32)
	if got := o.array(unsafe.Pointer(&bytes[0]), 32, reflect.TypeFor[byte]()); got != 0 {
		t.Fatalf("the array's memory as bytes: %d", got)
	}
	if o.next != 3 {
		t.Fatalf("the table's counter: %d, want 3 (two arrays and a three-index slice)", o.next)
	}
}
