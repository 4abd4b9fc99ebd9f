package embedptr

import "testing"

func TestInner(t *testing.T) {
	o := &Outer{inner: inner{N: 40}, M: 2}
	if in := o.Inner(); in.N != 40 {
		t.Fatalf("Inner().N = %d", in.N)
	}
	o.Inner().Set(5)
	if got := o.Sum(); got != 7 {
		t.Fatalf("Sum = %d", got)
	}
}
