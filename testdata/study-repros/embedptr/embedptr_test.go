package embedptr

import "testing"

func TestInner(t *testing.T) {
	o := &Outer{inner: inner{N: 40}, M: 2}
	if in := o.Inner(); in.N != 40 {
		t.Fatalf("Inner().N = %d", in.N)
	}
	if got := o.Sum(); got != 42 {
		t.Fatalf("Sum = %d", got)
	}
}
