package inner_test

import (
	"testing"

	"example.com/repros/deep/internal/inner"
)

func TestTwice(t *testing.T) {
	if inner.Twice(2) != 4 {
		t.Fatal("Twice(2) != 4")
	}
}
