package value

import (
	"reflect"
	"testing"
)

// The types the functions below declare are in this test binary's type
// table, as a test's are in a replay binary that links its test files.

func twinA() any {
	type linkedTwin struct{ A int }
	return linkedTwin{1}
}

func twinB() any {
	type linkedTwin struct{ A int }
	return &linkedTwin{2}
}

func shapeA() any {
	type linkedShape struct{ A int }
	return linkedShape{1}
}

func shapeB() any {
	type linkedShape struct{ A string }
	return &linkedShape{"b"}
}

func literal() any {
	return &struct {
		V string `q:"v"`
		w int
	}{V: "v"}
}

const thisPkg = "github.com/rules-capture/rules_capture/runtime/value"

// TestLinkedTestTypes: LinkedType finds a struct type literal by its
// reflect string (one with an unexported field, which reflect.StructOf
// cannot make), makes one with exported fields only, takes either of two
// types of one name that reflection cannot tell apart, refuses two of one
// name that it can when the name has no fingerprint, and builds unnamed
// types of error.
func TestLinkedTestTypes(t *testing.T) {
	lit := reflect.TypeOf(literal()).Elem()
	if got, ok := LinkedType(lit.String()); !ok || got != lit {
		t.Errorf("LinkedType(%q) = %v, %v; want the literal type itself", lit.String(), got, ok)
	}
	if got, ok := LinkedType("*" + lit.String()); !ok || got != reflect.PointerTo(lit) {
		t.Errorf("LinkedType of a pointer to the literal = %v, %v", got, ok)
	}
	a, b := reflect.TypeOf(twinA()), reflect.TypeOf(twinB()).Elem()
	if a == b {
		t.Fatal("the two twins are one type")
	}
	if got, ok := LinkedType(thisPkg + ".linkedTwin"); !ok || (got != a && got != b) {
		t.Errorf("LinkedType(linkedTwin) = %v, %v; want either twin", got, ok)
	}
	_, _ = shapeA(), shapeB()
	if got, ok := LinkedType(thisPkg + ".linkedShape"); ok {
		t.Errorf("LinkedType(linkedShape) = %v; want none: two types of that name with other fields", got)
	}
	if got, ok := LinkedType("[]error"); !ok || got != reflect.TypeFor[[]error]() {
		t.Errorf("LinkedType([]error) = %v, %v", got, ok)
	}
	if got, ok := LinkedType("struct { Nowhere int }"); !ok || got.String() != "struct { Nowhere int }" || got.Field(0).Type != reflect.TypeFor[int]() {
		t.Errorf("LinkedType(struct { Nowhere int }) = %v, %v; want the literal made by reflect.StructOf", got, ok)
	}
	if got, ok := LinkedType("struct { nowhere int }"); ok {
		t.Errorf("LinkedType made %v: a struct literal with an unexported field no code of the binary declares", got)
	}
}

func TestInterchangeable(t *testing.T) {
	type named struct{ A int }
	type withTag struct {
		A int `x:"y"`
	}
	for _, c := range []struct {
		a, b reflect.Type
		want bool
	}{
		{reflect.TypeOf(twinA()), reflect.TypeOf(twinB()).Elem(), true},
		{reflect.TypeOf(shapeA()), reflect.TypeOf(shapeB()).Elem(), false},
		{reflect.TypeFor[named](), reflect.TypeFor[withTag](), false},
		{reflect.TypeFor[[]int](), reflect.TypeFor[[]int](), true},
		{reflect.TypeFor[error](), reflect.TypeFor[error](), true},
		{reflect.TypeFor[func()](), reflect.TypeFor[func(int)](), false},
		{reflect.TypeFor[*reflect.Value](), reflect.TypeFor[*reflect.Value](), true},
	} {
		if got := interchangeable(c.a, c.b); got != c.want {
			t.Errorf("interchangeable(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
