package calc_test

import (
	"testing"

	"example.com/mini/calc"
)

func TestSum(t *testing.T) {
	if got := calc.Sum([]int{1, 2, 3}); got != 6 {
		t.Fatalf("Sum = %d", got)
	}
}

func TestMax(t *testing.T) {
	if calc.Max(1, 2) != 2 || calc.Max(3, 2) != 3 {
		t.Fatal("Max is wrong")
	}
}

func TestParse(t *testing.T) {
	if calc.Parse("12") != 12 || calc.Parse("x") != -1 {
		t.Fatal("Parse is wrong")
	}
}
