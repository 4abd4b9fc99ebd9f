package calc_test

import (
	"testing"

	"example.com/basic/calc"
)

func TestAdd(t *testing.T) {
	if got := calc.Add(2, 2); got != 4 {
		t.Fatalf("Add(2, 2) = %d", got)
	}
}

func TestCounter(t *testing.T) {
	c := calc.NewCounter("x")
	c.Inc(1)
	if got := c.Inc(2); got != 3 {
		t.Fatalf("Inc = %d", got)
	}
	if c.Name() != "x" {
		t.Fatal("name")
	}
}
