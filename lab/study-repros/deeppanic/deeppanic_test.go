package deeppanic_test

import (
	"testing"

	"example.com/repros/deeppanic"
)

// levels is the depth at which the callback gives up, as go-cmp's
// recursion check does, and panics through every level.
const levels = 3000

func TestPanicThroughDeepRecursion(t *testing.T) {
	var step deeppanic.Step
	step = func(depth int) {
		if depth == levels {
			panic("recursion too deep")
		}
		deeppanic.Descend(depth+1, step)
	}
	defer func() {
		if r := recover(); r != "recursion too deep" {
			t.Fatalf("recovered %v, want the panic from the bottom", r)
		}
	}()
	deeppanic.Descend(0, step)
}
