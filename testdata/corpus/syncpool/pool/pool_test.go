package pool_test

import (
	"runtime"
	"testing"

	"example.com/syncpool/pool"
)

func TestPackagePool(t *testing.T) {
	n := 0
	h := func(b *pool.Buf) { n += b.N }
	pool.Handle(h)
	runtime.GC()
	runtime.GC()
	pool.Handle(h)
	if n != 2 {
		t.Errorf("n = %d, want 2", n)
	}
}

func TestServerPool(t *testing.T) {
	s := pool.NewServer()
	n := 0
	h := func(b *pool.Buf) { n += b.N }
	s.Handle(h)
	runtime.GC()
	runtime.GC()
	s.Handle(h)
	if n != 2 {
		t.Errorf("n = %d, want 2", n)
	}
}
