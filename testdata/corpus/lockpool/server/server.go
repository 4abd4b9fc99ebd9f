// Package server is external code (not observed): an order server whose
// answers take a while, longer for higher worker numbers, so that in the
// capture the workers' orders come back in worker order.
package server

import (
	"sync"
	"time"
)

// Server keeps the calls it served.
type Server struct {
	mu    sync.Mutex
	calls []string
}

func (s *Server) log(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = append(s.calls, format)
}

// Create makes worker's next order and returns its ID.
func (s *Server) Create(worker, n int) int {
	time.Sleep(time.Duration(worker) * 3 * time.Millisecond)
	s.log("create")
	return 100*worker + n
}

// Seen tells the server how many orders worker saw in the pool.
func (s *Server) Seen(worker, orders int) { s.log("seen") }

// Flush is called by the worker that won the flush lock; it takes long
// enough for other workers' tries to fail meanwhile.
func (s *Server) Flush(worker int) {
	time.Sleep(4 * time.Millisecond)
	s.log("flush")
}

// Cancel cancels order id as the i-th job; it returns a fee.
func (s *Server) Cancel(i, id int) int {
	s.log("cancel")
	return id % 7
}
