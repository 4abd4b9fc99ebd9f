package genericwrite_test

import (
	"testing"

	"example.com/repros/genericwrite"
)

func TestOverwrite(t *testing.T) {
	c := genericwrite.New[string, int]()
	c.Put("a", 1)
	c.Put("a", 2)
	c.Put("a", 3)
	if v, hits, ok := c.Get("a"); !ok || v != 3 || hits != 2 {
		t.Fatalf("Get(a) = %d, %d, %v; want 3, 2, true", v, hits, ok)
	}
}
