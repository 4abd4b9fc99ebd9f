package typederrorwrite_test

import (
	"testing"

	"example.com/repros/typederrorwrite"
)

func TestCompileError(t *testing.T) {
	_, err := typederrorwrite.Compile("abcdef")
	if err == nil || err.Error() != "too long (1) ab" {
		t.Fatalf("err = %v", err)
	}
}
