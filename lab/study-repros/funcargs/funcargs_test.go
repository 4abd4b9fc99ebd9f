package funcargs_test

import (
	"testing"

	"example.com/repros/funcargs"
)

func a() {}
func b() {}

func TestCount(t *testing.T) {
	if got := funcargs.Count(a, b, a, nil); got != 3 {
		t.Fatalf("Count = %d", got)
	}
}
