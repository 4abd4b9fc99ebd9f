package ptrarg_test

import (
	"testing"

	"example.com/repros/ptrarg"
)

func TestUnmarshalText(t *testing.T) {
	c := &ptrarg.Counter{}
	if err := c.UnmarshalText([]byte("42")); err != nil || c.N() != 42 {
		t.Fatalf("UnmarshalText: %v, N() = %d", err, c.N())
	}
}
