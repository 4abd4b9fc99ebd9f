package readvar_test

import (
	"testing"

	"example.com/repros/readvar"
)

func TestMode(t *testing.T) {
	if got := readvar.Mode(); got != "random" {
		t.Fatalf("Mode() = %q", got)
	}
}
