package bidi_test

import (
	"strings"
	"testing"

	"example.com/firstwhole/bidi"
)

func TestMap(t *testing.T) {
	m := bidi.New()
	m.Put("a")
	m.Put("b")
	up := m.Map(strings.ToUpper)
	if up.Size() != 2 || up.Puts() != 2 {
		t.Fatalf("size %d, puts %d", up.Size(), up.Puts())
	}
}
