package sliceshare_test

import (
	"testing"

	"example.com/repros/sliceshare"
)

func TestExtendThenFill(t *testing.T) {
	b := sliceshare.New()
	copy(b.Extend(2), "hi")
	copy(b.Extend(3), "!!!")
	if got := b.String(); got != "hi!!!" {
		t.Fatalf("String() = %q", got)
	}
}
