package sorted

import (
	"strings"
	"testing"

	"example.com/funcptr/cmps"
)

func TestUnion(t *testing.T) {
	a := New(cmps.Asc, "b", "a")
	if got := a.Union(New(cmps.Desc, "c")); got != nil {
		t.Errorf("union across orders: %v", got)
	}
	if got := strings.Join(a.Union(New(cmps.Asc, "c", "a")), ","); got != "a,b,c" {
		t.Errorf("union: %s", got)
	}
}
