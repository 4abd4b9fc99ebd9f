package errident

import (
	"fmt"
	"testing"
)

func TestIs(t *testing.T) {
	err := New("test")
	if !Is(WithMessage(err, "wrapped"), err) {
		t.Fatal("the cause is not in the chain")
	}
}

// pkg/errors' TestUnwrap: a *fmt.wrapError crosses as a stand-in.
func TestUnwrap(t *testing.T) {
	err := New("test")
	if Unwrap(fmt.Errorf("wrap: %w", err)) != err {
		t.Fatal("Unwrap did not give back the cause")
	}
}
