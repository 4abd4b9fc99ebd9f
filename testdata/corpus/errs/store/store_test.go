package store_test

import (
	"errors"
	"strings"
	"testing"

	"example.com/errs/store"
)

func TestGet(t *testing.T) {
	s := store.Open("db")
	if v, err := s.Get("a"); err != nil || v != "alpha" {
		t.Fatalf("Get(a) = %q, %v", v, err)
	}
	if _, err := s.Get("zz"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get(zz) = %v", err)
	}
	if v, _ := s.Get("bad"); v != "corrupt:bad" {
		t.Fatalf("Get(bad) = %q", v)
	}
	if s.Hits() != 1 {
		t.Fatal("hits")
	}
}

func TestCount(t *testing.T) {
	n, err := store.Count(strings.NewReader("hello, world"))
	if err != nil || n != 12 {
		t.Fatalf("Count = %d, %v", n, err)
	}
}
