package testingvalue_test

import (
	"testing"

	"example.com/repros/testingvalue"
)

func TestTestingT(t *testing.T) {
	if got := testingvalue.Kind(testing.T{}); got != "struct with fields" {
		t.Fatal(got)
	}
}
