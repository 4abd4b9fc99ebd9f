// Package syncpool: observed code takes objects of its own from a
// sync.Pool and hands them to external code, as chi's Mux.ServeHTTP takes
// its routing context from a pool and hands it to context.WithValue.
// Whether a Get returns the object a Put left or a new one depends on the
// garbage collector and the scheduler: the test collects between two
// requests in the capture, which replay does not run, so the capture's
// second request got a new object and replay's the old one.
package syncpool

import "sync"

// Buf is what the pools hold.
type Buf struct{ N int }

var pool = sync.Pool{New: func() any { return &Buf{} }}

// Handle gets a Buf from the package's pool and hands it to h.
func Handle(h func(*Buf)) {
	b := pool.Get().(*Buf)
	b.N++
	h(b)
	b.N = 0
	pool.Put(b)
}

// Server has a pool of its own, through a pointer (chi's Mux.pool).
type Server struct{ pool *sync.Pool }

// NewServer returns a Server with an empty pool.
func NewServer() *Server {
	return &Server{pool: &sync.Pool{New: func() any { return &Buf{} }}}
}

// Handle gets a Buf from the server's pool and hands it to h.
func (s *Server) Handle(h func(*Buf)) {
	b := s.pool.Get().(*Buf)
	b.N++
	h(b)
	b.N = 0
	s.pool.Put(b)
}
