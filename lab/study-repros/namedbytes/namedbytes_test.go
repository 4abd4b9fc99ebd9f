package namedbytes_test

import (
	"testing"

	"example.com/repros/namedbytes"
)

func TestLen(t *testing.T) {
	if got := namedbytes.Build(5).Len(); got != 3 {
		t.Fatalf("Len = %d, want 3", got)
	}
}
