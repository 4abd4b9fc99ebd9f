package localtypes_test

import (
	"testing"

	"example.com/repros/localtypes"
	"example.com/repros/localtypes/internal/label"
)

// Enum is declared in the external test package, which imports an
// internal package of the module (toml_test's Enum1, cast_test's MyBool).
type Enum uint

func TestExternal(t *testing.T) {
	if got := label.Of(localtypes.Encode(&struct{ K Enum }{})); got != "[K=uint]" {
		t.Fatal(got)
	}
}
