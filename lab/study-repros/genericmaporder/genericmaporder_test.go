package genericmaporder_test

import (
	"testing"

	"example.com/repros/genericmaporder"
)

func TestPurge(t *testing.T) {
	s := genericmaporder.New[int]()
	for i := range 64 {
		s.Add(i)
	}
	n := 0
	s.Purge(func(int) { n++ })
	if n != 64 {
		t.Fatalf("evicted %d keys, want 64", n)
	}
}
