package selectcross_test

import (
	"testing"
	"time"

	"example.com/repros/selectcross"
)

// TestNewThenClose constructs caches (each starts a reaper that races the
// constructor's return) and closes them.
func TestNewThenClose(t *testing.T) {
	for range 5 {
		c := selectcross.New(time.Hour)
		time.Sleep(time.Millisecond) // the reaper reaches its select
		c.Add("a")
		if n := c.Len(); n != 1 {
			t.Fatalf("Len = %d, want 1", n)
		}
		c.Close()
	}
	time.Sleep(5 * time.Millisecond) // the reapers see done closed and end before the test does
}
