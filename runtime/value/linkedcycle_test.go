package value

import (
	"reflect"
	"testing"
)

func circularA() reflect.Type {
	type circular struct {
		ui8 uint8
		c   *circular
	}
	return reflect.TypeOf(circular{})
}

func circularB() reflect.Type {
	type circular struct {
		ui8 uint8
		c   *circular
	}
	return reflect.TypeOf(circular{})
}

func circularOther() reflect.Type {
	type circular struct {
		ui8 uint16
		c   *circular
	}
	return reflect.TypeOf(circular{})
}

// TestInterchangeableRecursiveTypes: two recursive types of one name,
// declared alike in two functions (spew's tests declare `type circular
// struct{ ...; c *circular }` in several), compare without recursing
// without end (the capture of spew's TestFormatter overflowed its stack
// there), and a difference below the cycle still tells them apart.
func TestInterchangeableRecursiveTypes(t *testing.T) {
	a, b, other := circularA(), circularB(), circularOther()
	if a == b || a.String() != b.String() {
		t.Fatalf("want two types of one name: %v, %v", a, b)
	}
	if !interchangeable(a, b) || !interchangeable(reflect.PointerTo(a), reflect.PointerTo(b)) {
		t.Error("two recursive types declared alike are not interchangeable")
	}
	if interchangeable(a, other) {
		t.Error("recursive types with fields of different types are interchangeable")
	}
}
