package outcallwrite_test

import (
	"path"
	"testing"

	"example.com/repros/outcallwrite"
)

func TestRoute(t *testing.T) {
	clean := func(c *outcallwrite.Context, next func()) {
		c.Path = path.Clean(c.Path)
		next()
	}
	if got := outcallwrite.Route(clean, "/a//b/../c/"); got != "/a/c" {
		t.Errorf("Route = %q, want /a/c", got)
	}
}
