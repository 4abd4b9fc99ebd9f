package desc

import (
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	for name, want := range map[string]string{
		"point":   "schema.Point struct X int Y int true true",
		"label":   "schema.Label struct Text string Size float64 true true",
		"pair":    "[2]*schema.Point array *schema.Point true true",
		"handler": "func(schema.Point, ...string) error func 2 true error true true",
		"index":   "map[string][]schema.Label map []schema.Label true true",
	} {
		if got := strings.Join(Describe(name), " "); got != want {
			t.Errorf("Describe(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestSeen(t *testing.T) {
	if n := Seen("point", "label", "point", "pair"); n != 3 {
		t.Errorf("Seen = %d, want 3", n)
	}
}
