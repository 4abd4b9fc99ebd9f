// Package orders is the observed set of the lockpool corpus program (shaped
// like examples/shop/loadgen's order pool): workers append the orders
// they create to a pool under a lock, and later jobs pick from it by index,
// so which order a job gets depends on the order the workers took the
// lock in: an interleaving inside the observed set.
package orders

import (
	"sync"

	"example.com/lockpool/server"
)

// Pool holds created orders in the order the workers added them.
type Pool struct {
	mu    sync.RWMutex
	ids   []int
	flush sync.Mutex // held by the worker that flushes
}

func (p *Pool) add(id int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ids = append(p.ids, id)
}

func (p *Pool) size() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return len(p.ids)
}

// pick returns the order at index i (modulo the pool's size).
func (p *Pool) pick(i int) int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.ids[i%len(p.ids)]
}

// work stands for what a worker computes between creating an order and
// adding it (no boundary event): longer for lower worker numbers, by
// server.Unit iterations per worker in the first round (more than the
// scheduler's time slice, so replay reverses the order even on one CPU),
// by a 32nd of that in later rounds. server.Create explains the capture.
func work(worker, workers, n int) int {
	x := worker
	for i := range (workers - worker) * server.Unit >> min(n*5, 5) {
		x = x*31 + i
	}
	return x
}

// Run has workers goroutines create perWorker orders each and add them to
// the pool; each worker then reports the pool's size and tries to flush.
// Then every order is cancelled by index. It returns the fees.
func Run(s *server.Server, workers, perWorker int) int {
	pool := &Pool{}
	var wg sync.WaitGroup
	var sink sync.Mutex // a local the workers share
	spent := 0
	for w := range workers {
		wg.Go(func() {
			for n := range perWorker {
				id := s.Create(w, n)
				x := work(w, workers, n)
				pool.add(id)
				s.Seen(w, pool.size())
				if pool.flush.TryLock() {
					s.Flush(w)
					pool.flush.Unlock()
				}
				sink.Lock()
				spent += x & 1
				sink.Unlock()
			}
		})
	}
	wg.Wait()
	fees := 0
	for i := range workers * perWorker {
		fees += s.Cancel(i, pool.pick(i*5))
	}
	return fees + spent
}
