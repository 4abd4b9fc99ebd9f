package lexer

import (
	"reflect"
	"strings"
	"testing"
)

func helperA() {}

func helperB() {}

// helperT is a type of the tests: the compiler's wrappers of its methods
// (a method value's helperT.Method-fm, a pointer receiver's
// (*helperT).Method) are test code, not the observed package's.
type helperT struct{}

func (helperT) Method() {}

// TestFuncNames names functions of the test, one of them twice, and one
// of them on its own.
func TestFuncNames(t *testing.T) {
	a, b := reflect.ValueOf(helperA), reflect.ValueOf(helperB)
	got := strings.Join(FuncNames([]reflect.Value{a, b, a}), " ")
	if got != "helperA helperB helperA" {
		t.Errorf("got %q", got)
	}
	if got := FuncName(b); got != "helperB" {
		t.Errorf("got %q", got)
	}
	if got := FuncName(reflect.ValueOf(helperT{}.Method)); got != "Method-fm" {
		t.Errorf("got %q", got)
	}
	if got := FuncName(reflect.ValueOf((*helperT).Method)); got != "Method" {
		t.Errorf("got %q", got)
	}
}
