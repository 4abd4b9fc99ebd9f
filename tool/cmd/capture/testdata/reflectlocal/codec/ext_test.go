package codec_test

import (
	"testing"

	"example.com/reflectlocal/codec"
	"example.com/reflectlocal/codec/internal/names"
)

// external is declared in the external test package, which the replay
// harness links as a module of its own at codec_test's import path; it
// imports an internal package of codec, which the harness gives it a copy
// of.
type external struct{ H int }

func TestExternal(t *testing.T) {
	if got := codec.Fields(external{H: 8}); got != names.Upper("h")+"=8" {
		t.Fatal(got)
	}
}

// TestExternalLiteral hands over a struct type literal of the external
// test package.
func TestExternalLiteral(t *testing.T) {
	if got := codec.Fields(&struct{ I int }{I: 9}); got != "I=9" {
		t.Fatal(got)
	}
}
