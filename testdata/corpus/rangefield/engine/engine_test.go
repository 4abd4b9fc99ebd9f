package engine_test

import (
	"slices"
	"testing"

	"example.com/rangefield/engine"
)

func TestEnabled(t *testing.T) {
	if got := engine.Enabled(false); !slices.Equal(got, []string{"abs", "len", "max", "min", "sum"}) {
		t.Errorf("Enabled() = %v", got)
	}
	if got := engine.Enabled(false, "len", "min"); !slices.Equal(got, []string{"abs", "max", "sum"}) {
		t.Errorf("Enabled(Disable) = %v", got)
	}
}

func TestDisableAll(t *testing.T) {
	if got := engine.Enabled(true); len(got) != 0 {
		t.Errorf("Enabled(DisableAll) = %v", got)
	}
}
