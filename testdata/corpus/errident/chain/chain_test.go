package chain_test

import (
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
