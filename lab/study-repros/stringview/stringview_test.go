package stringview_test

import (
	"testing"

	"example.com/repros/stringview"
)

func TestReadOnlyBytes(t *testing.T) {
	a, b := stringview.ReadOnlyBytes("id"), stringview.ReadOnlyBytes("id")
	if string(a) != "id" || string(b) != "id" {
		t.Fatalf("ReadOnlyBytes = %q, %q", a, b)
	}
}
