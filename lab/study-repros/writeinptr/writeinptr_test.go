package writeinptr

import (
	"io"
	"testing"
)

func TestAdd(t *testing.T) {
	Default = &Set{name: "test", out: io.Discard}
	if got := Add(); got != 1 {
		t.Fatalf("Add = %d", got)
	}
}
