package syncpool_test

import (
	"runtime"
	"testing"

	"example.com/repros/syncpool"
)

func TestPackagePool(t *testing.T) {
	n := 0
	h := func(b *syncpool.Buf) { n += b.N }
	syncpool.Handle(h)
	runtime.GC()
	runtime.GC()
	syncpool.Handle(h)
	if n != 2 {
		t.Errorf("n = %d, want 2", n)
	}
}

func TestServerPool(t *testing.T) {
	s := syncpool.NewServer()
	n := 0
	h := func(b *syncpool.Buf) { n += b.N }
	s.Handle(h)
	runtime.GC()
	runtime.GC()
	s.Handle(h)
	if n != 2 {
		t.Errorf("n = %d, want 2", n)
	}
}
