package funcvalarg_test

import (
	"testing"

	"example.com/repros/funcvalarg"
)

func TestApplyDouble(t *testing.T) {
	if got := funcvalarg.Apply([]float64{1, 2}, funcvalarg.Double); len(got) != 2 || got[1] != 4 {
		t.Fatalf("Apply = %v", got)
	}
}
