package lexer

import (
	"reflect"
	"strings"
	"testing"
)

func helperA() {}

func helperB() {}

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
}
