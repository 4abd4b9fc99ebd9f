// Package svc is the observed set of the busy program, which the kill
// test of capture replay SIGKILLs at random moments. Incalls come
// continuously from several goroutines; each takes a lock that the
// service's own goroutines share too (lock turns) and makes outcalls. The
// service runs a pool of workers (goroutines of the observed set) that
// receive jobs from one channel fed by one producer (channel turns) and
// make outcalls of their own. A kill leaves calls in progress at every one
// of these points.
package svc

import (
	"sync"

	"example.com/busy/store"
)

// Service counts hits per key and stores them.
type Service struct {
	st    *store.Store
	mu    sync.Mutex
	hits  map[string]int
	total int
}

// New starts a service with workers workers.
func New(st *store.Store, workers int) *Service {
	s := &Service{st: st, hits: map[string]int{}}
	jobs := make(chan int)
	go feed(jobs)
	for w := range workers {
		go s.work(w, jobs)
	}
	return s
}

// feed is the only sender on jobs, so that the k-th receive gets the k-th
// job in replay too (sends from several goroutines are not ordered).
func feed(jobs chan<- int) {
	for i := 0; ; i++ {
		jobs <- i
	}
}

func (s *Service) work(w int, jobs <-chan int) {
	for j := range jobs {
		s.mu.Lock()
		s.total += j
		t := s.total
		s.mu.Unlock()
		s.st.Put(w, "job", t)
		s.st.Pause()
	}
}

// Handle counts n hits for key and returns a summary of the key's count,
// the work done so far, and the store's answer.
func (s *Service) Handle(key string, n int) int {
	stamp := s.st.Stamp()
	s.mu.Lock()
	s.hits[key] += n
	s.total++
	c, total := s.hits[key], s.total
	s.mu.Unlock()
	s.st.Pause() // an incall spends most of its time here: a kill cuts it
	stored := s.st.Put(-1, key, c)
	return c*1000 + total + stored + int(stamp%7)
}
