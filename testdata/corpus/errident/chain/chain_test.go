package chain_test

import (
	"fmt"
	"testing"

	"example.com/errident/chain"
)

func TestIdentity(t *testing.T) {
	e := chain.New("missing")
	other := chain.New("missing")
	w := chain.Wrap(e, "get")
	if !chain.Is(w, e) {
		t.Error("the wrapped error is not in its own chain")
	}
	if chain.Is(w, other) {
		t.Error("an equal error of another allocation matched")
	}
	if !chain.Is(e, e) {
		t.Error("an error does not match itself")
	}
}

// An error of a type replay cannot rebuild (*fmt.wrapError) crosses as a
// stand-in; errors.Unwrap of it gives back the observed error.
func TestUnwrap(t *testing.T) {
	e := chain.New("missing")
	if got := chain.Unwrap(fmt.Errorf("get: %w", e)); got != e {
		t.Errorf("Unwrap = %v, want the wrapped error", got)
	}
	if got := chain.Unwrap(e); got != nil {
		t.Errorf("Unwrap of an error wrapping nothing = %v", got)
	}
}
