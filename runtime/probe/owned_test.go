package probe

import (
	"bytes"
	"io"
	"runtime"
	"sync"
	"testing"
)

func TestOwnMarksAddresses(t *testing.T) {
	b := new(bytes.Buffer)
	if owned(b) {
		t.Fatal("an address nothing marked counts as owned")
	}
	if got := Own(b); got != b {
		t.Fatal("Own does not return its argument")
	}
	var w io.Writer = b
	if !owned(b) || !owned(w) {
		t.Fatal("a marked address, bare or in an interface, does not count as owned")
	}
	if owned(new(bytes.Buffer)) {
		t.Fatal("another object counts as owned")
	}
	if owned(*b) || owned(nil) || owned((*bytes.Buffer)(nil)) {
		t.Fatal("a value, nil or a nil pointer counts as owned")
	}
	Own((*bytes.Buffer)(nil))
	mu := new(sync.Mutex)
	Own(mu)
	if owned(mu) {
		t.Fatal("a sync value is marked")
	}
	runtime.KeepAlive(b)
}

func TestOwnedMarkEndsWithItsObject(t *testing.T) {
	// Objects marked and collected leave no mark on whatever the memory
	// holds next: the entries' weak pointers are cleared first.
	for range 200 {
		Own(new([64]byte))
	}
	runtime.GC()
	runtime.GC()
	for range 200 {
		if p := new([64]byte); owned(p) {
			t.Fatal("a new object at a collected marked object's address counts as owned")
		}
	}
}
