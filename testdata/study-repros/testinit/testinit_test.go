package testinit

import "testing"

// Defined while the package initialises, before any test runs.
var (
	testLimit = Define("limit", 3)
	testDepth = Define("depth", 5)
)

func TestNames(t *testing.T) {
	if got := Names(); got != "depth,limit" {
		t.Fatalf("Names = %q", got)
	}
	if *testLimit != 3 || *testDepth != 5 {
		t.Fatal("defaults")
	}
}
