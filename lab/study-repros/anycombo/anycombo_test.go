package anycombo_test

import (
	"testing"

	"example.com/repros/anycombo"
	"example.com/repros/anycombo/ext"
)

func TestRun(t *testing.T) {
	if got := anycombo.Run("doc", "x", ext.Upper()); got != "x:doc" {
		t.Errorf("Run = %q, want %q", got, "x:doc")
	}
}
