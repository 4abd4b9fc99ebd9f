package roles_test

import (
	"testing"

	"example.com/anycombo/ext"
	"example.com/anycombo/roles"
)

func TestRun(t *testing.T) {
	if got := roles.Run("doc", "x", ext.Upper(), ext.First()); got != "x:doc,d" {
		t.Errorf("Run = %q, want %q", got, "x:doc,d")
	}
}
