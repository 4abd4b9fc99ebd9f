package ops

import "testing"

func TestOps(t *testing.T) {
	Alias("plus", "+")
	for _, c := range []struct {
		op   string
		a, b int
		want int
	}{{"+", 2, 3, 5}, {"-", 7, 4, 3}, {"plus", 1, 1, 2}, {"*", 3, 4, 12}, {"plus", 4, 5, 9}} {
		got, err := Apply(c.op, c.a, c.b)
		if err != nil || got != c.want {
			t.Fatalf("Apply(%q, %d, %d) = %d, %v; want %d", c.op, c.a, c.b, got, err, c.want)
		}
	}
}
