package mapfield

import (
	"testing"

	"example.com/repros/mapfield/cfg"
)

func TestWithX(t *testing.T) {
	if c := cfg.New(WithX()); !c.Options["x"] {
		t.Errorf("Options = %v, want x set", c.Options)
	}
}
