package router_test

import (
	"path"
	"testing"

	"example.com/outcallwrite/router"
)

func TestRoute(t *testing.T) {
	clean := func(c *router.Context, next func()) {
		c.Path = path.Clean(c.Path)
		next()
	}
	if got := router.Route(clean, "/a//b/../c/"); got != "/a/c" {
		t.Errorf("Route = %q, want /a/c", got)
	}
}

func TestRouteTwice(t *testing.T) {
	calls := 0
	twice := func(c *router.Context, next func()) {
		c.Path += "/x"
		next()
		c.Path += "/y"
		calls++
		next()
	}
	if got := router.Route(twice, "/a"); got != "/a/x/y" || calls != 1 {
		t.Errorf("Route = %q after %d calls, want /a/x/y", got, calls)
	}
}
