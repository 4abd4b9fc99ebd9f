package ptrslice_test

import (
	"testing"

	"example.com/repros/ptrslice"
)

func TestDescribe(t *testing.T) {
	ps := []float64{10, 50, 90}
	d, err := ptrslice.Describe([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, &ps)
	if err != nil || d.Count != 10 || d.Max != 10 || len(d.Percentiles) != 3 {
		t.Fatalf("Describe = %+v, %v", d, err)
	}
}
