package astarget

import (
	"fmt"
	"testing"
)

// customErr is a type of the test file: replay cannot name it.
type customErr struct{ msg string }

func (c customErr) Error() string { return c.msg }

func TestAs(t *testing.T) {
	err := customErr{msg: "test message"}
	for _, e := range []error{Wrap(err, "wrapped"), fmt.Errorf("wrap it: %w", err)} {
		target := new(customErr)
		if !As(e, target) {
			t.Fatalf("As(%v) = false", e)
		}
		if target.msg != "test message" {
			t.Fatalf("As set %q", target.msg)
		}
	}
}
