package cache_test

import (
	"testing"

	"example.com/embedhidden/cache"
)

// TestSetThroughEmbedded sets through the promoted methods, has the
// janitor sweep, then asks the package, which reads the object New
// registered.
func TestSetThroughEmbedded(t *testing.T) {
	c := cache.New()
	defer c.Close()
	c.Set("a", 2)
	c.Set("b", -1)
	c.Set("c", 3)
	if n := c.Sweep(); n != 1 {
		t.Fatalf("Sweep() = %d", n)
	}
	if v, ok := c.Get("b"); ok {
		t.Fatalf("Get(b) = %d after the sweep", v)
	}
	if got := cache.Total(); got != 5 {
		t.Fatalf("Total() = %d", got)
	}
}
