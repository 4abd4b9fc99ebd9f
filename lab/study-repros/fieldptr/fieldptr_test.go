package fieldptr

import "testing"

// TestFieldReceiver adds a parameter through the address of the context's
// Params field and reads it through the context.
func TestFieldReceiver(t *testing.T) {
	c := NewContext()
	c.Params.Add("name", "joe")
	if got := c.Param("name"); got != "joe" {
		t.Fatalf("Param = %q, want joe", got)
	}
}
