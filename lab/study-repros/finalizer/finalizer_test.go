package finalizer_test

import (
	"testing"

	"example.com/repros/finalizer"
)

func TestSetGet(t *testing.T) {
	c := finalizer.New()
	c.Set("a", 1)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Fatalf("Get = %d, %v", v, ok)
	}
}
