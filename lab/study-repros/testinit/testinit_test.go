package testinit

import "testing"

// Defined while the package initialises, before any test runs.
var (
	testLimit = Define("limit", 3)
	testDepth = Define("depth", 5)
)

func TestNames(t *testing.T) {
	if got := Names(); got != "depth,frominit,limit" {
		t.Fatalf("Names = %q", got)
	}
	if *testLimit != 3 || *testDepth != 5 {
		t.Fatal("defaults")
	}
}

// An init function of the test file runs after the package's own: an
// ordinary incall, recorded and replayed before this change too.
func init() { Define("frominit", 1) }
