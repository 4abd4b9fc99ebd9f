package errident

import "testing"

func TestIs(t *testing.T) {
	err := New("test")
	if !Is(WithMessage(err, "wrapped"), err) {
		t.Fatal("the cause is not in the chain")
	}
}
