package namedfunc_test

import (
	"testing"

	"example.com/repros/namedfunc"
)

func TestCount(t *testing.T) {
	if got := namedfunc.Count(5, func(i int) bool { return i%2 == 0 }); got != 3 {
		t.Fatalf("Count = %d, want 3", got)
	}
}
