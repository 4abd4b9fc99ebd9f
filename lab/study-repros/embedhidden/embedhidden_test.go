package embedhidden

import "testing"

// TestSetThroughEmbedded sets through the promoted method, then asks the
// package, which reads the object New registered.
func TestSetThroughEmbedded(t *testing.T) {
	c := New()
	c.Set("a", 2)
	c.Set("b", 3)
	if got := Total(); got != 5 {
		t.Fatalf("Total() = %d", got)
	}
}
