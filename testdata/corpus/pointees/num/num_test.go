package num_test

import (
	"testing"

	"example.com/pointees/num"
)

func TestDescribe(t *testing.T) {
	ps := []float64{10, 50, 90}
	d := num.Describe([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, &ps)
	if d.Count != 10 || len(d.Percentiles) != 3 {
		t.Fatalf("Describe = %+v", d)
	}
	if d := num.Describe([]float64{1}, nil); d.Count != 1 || d.Percentiles != nil {
		t.Fatalf("Describe without percentiles = %+v", d)
	}
}

func TestQuoInt(t *testing.T) {
	q := num.New(100, -1).Copy().QuoInt(num.New(7, -1))
	if got := q.String(); got != "14e0" {
		t.Fatalf("QuoInt = %s", got)
	}
}
