package state

import "testing"

func TestList(t *testing.T) {
	var vals []string
	l := NewList(&vals)
	l.Add("a,b")
	l.Add("c")
	if got := l.String(); got != "[a b c]" {
		t.Fatalf("String = %q", got)
	}
	l.Add("d")
	if got := l.String(); got != "[a b c d]" {
		t.Fatalf("String = %q", got)
	}
}

func TestOpError(t *testing.T) {
	e := &OpError{Op: "%"}
	if got := e.Describe(); got != "% (1)" {
		t.Fatalf("Describe = %q", got)
	}
	if got := e.Describe(); got != "% (2)" {
		t.Fatalf("Describe = %q", got)
	}
	if got := e.Describe(); got != "% (3)" {
		t.Fatalf("Describe = %q", got)
	}
}
