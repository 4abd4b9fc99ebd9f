package cache_test

import (
	"testing"

	"example.com/format11/cache"
)

func TestSetGet(t *testing.T) {
	c := cache.New("c")
	c.Set("a", 2)
	if v := c.Get("a"); v != 2 || c.Name != "c" {
		t.Fatal(v, c.Name)
	}
}
