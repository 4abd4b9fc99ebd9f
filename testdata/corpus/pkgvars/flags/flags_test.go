package flags

import (
	"io"
	"testing"
	"time"
)

// An in-package test file's variable initialiser calls observed code
// during the package's initialisation: its outcall numbers an object in
// the capture's log that the replay harness, which links no test files,
// never makes (pflag's flag_test.go defines flags on CommandLine).
var initDescription = Default.Describe(new(time.Duration))

func TestDefaultUntouched(t *testing.T) {
	if got := Add(); got != 11 {
		t.Fatalf("Add = %d, want 11 (zzz_late.go's init sets 10)", got)
	}
	if got := Add(); got != 12 {
		t.Fatalf("Add = %d", got)
	}
	if initDescription != "0s" {
		t.Fatal(initDescription)
	}
}

func TestNewSets(t *testing.T) {
	a, b := New("a"), New("b")
	a.Add()
	if a.Add() != 2 || b.Add() != 1 {
		t.Fatal("counts")
	}
}

// TestReset points Default at a new set (pflag's ResetForTesting), then
// calls a method on it: the WRITE_IN holds the set's contents, the incall
// a reference (replay once re-encoded the receiver with contents).
func TestReset(t *testing.T) {
	saved := Default
	defer func() { Default = saved }()
	Default = &Set{name: "test", out: io.Discard}
	if got := Default.Add(); got != 1 {
		t.Fatalf("Add = %d", got)
	}
	if got := Add(); got != 2 {
		t.Fatalf("Add = %d", got)
	}
	Usage = func() {}
}

// TestIntVar gets back, inside a Flag's Value, the address it passed as an
// *int, now an *intValue (replay once named it *int).
func TestIntVar(t *testing.T) {
	x := 7
	s := New("ints")
	f := s.IntVar(&x, "x")
	if f.Name != "x" || f.Value == nil {
		t.Fatal(f)
	}
}

func TestArgs(t *testing.T) {
	if len(Args()) == 0 || Args()[0] == "" {
		t.Fatal("no arguments")
	}
}
