package configresult

import (
	"strings"
	"testing"
)

// target is declared in a test file, as mapstructure's Map and Basic are.
type target struct {
	Name  string
	Owner string
}

func TestDecodeIntoTarget(t *testing.T) {
	out := &target{Owner: "ops"}
	d := NewDecoder(&Config{Result: out, MatchName: strings.EqualFold})
	kept := d.Decode(map[string]any{"name": "api"})
	if out.Name != "api" || out.Owner != "ops" {
		t.Fatalf("got %+v", *out)
	}
	if len(kept) != 1 || kept[0] != "Owner=ops" {
		t.Fatalf("kept %v", kept)
	}
}
