package fprintf_test

import (
	"testing"

	"example.com/repros/fprintf"
)

func TestString(t *testing.T) {
	if got := fprintf.New(1, 2).String(); got != "1.2" {
		t.Fatalf("String() = %q", got)
	}
}
