package sliceheader_test

import (
	"testing"

	"example.com/repros/sliceheader"
)

func TestUpper(t *testing.T) {
	for in, want := range map[string]string{"": "", "abc": "ABC", "Hello, world": "HELLO, WORLD"} {
		if got := sliceheader.Upper(in); got != want {
			t.Errorf("Upper(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	if got := sliceheader.Count("banana", 'a'); got != 3 {
		t.Errorf("Count = %d", got)
	}
}
