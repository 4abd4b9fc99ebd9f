// Package server is external code (not observed): an order server whose
// answers take a while, longer for higher worker numbers, so that in the
// capture the workers' orders come back in worker order.
package server

import (
	"sync"
	"time"
)

// Unit is the number of iterations of the orders package's work loop by
// which a worker's first-round work grows per lower worker number.
const Unit = 10_000_000

// Server keeps the calls it served.
type Server struct {
	mu    sync.Mutex
	calls []string

	unitOnce sync.Once
	unitTime time.Duration // how long Unit iterations of the work loop take here
}

func (s *Server) log(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = append(s.calls, format)
}

// Create makes worker's next order and returns its ID.
//
// In the first round it answers worker w after w*1.4 units of work time
// (measured here, once): worker w then adds to the pool at (w*1.4 +
// workers-w) units, in worker order, 0.4 units apart, while workers 0-2
// have all been answered before worker 0 adds. A replay without lock turns
// answers them at once, and the one with the least work (the highest
// number) adds first: the reverse order, which changes what Seen reports.
// Later rounds answer worker w after w*3ms.
func (s *Server) Create(worker, n int) int {
	if n == 0 {
		s.unitOnce.Do(func() { s.unitTime = measureUnit() })
		time.Sleep(time.Duration(worker) * s.unitTime * 14 / 10)
	} else {
		time.Sleep(time.Duration(worker) * 3 * time.Millisecond)
	}
	s.log("create")
	return 100*worker + n
}

// measureUnit times Unit iterations of the loop of the orders package's work.
func measureUnit() time.Duration {
	start := time.Now()
	x := 0
	for i := range Unit {
		x = x*31 + i
	}
	sink = x
	return time.Since(start)
}

var sink int

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
