package cmdline

import (
	"testing"
	"time"
)

// Runs during the package's initialisation in the test binary only.
var described = CommandLine.Describe(new(time.Duration))

func TestUntouched(t *testing.T) {
	s := New("a")
	if s.Add() != 1 || described != "0s" {
		t.Fatal("Add")
	}
}

func TestReset(t *testing.T) {
	CommandLine = &Set{name: "test"}
	if CommandLine.Add() != 1 {
		t.Fatal("Add")
	}
}
