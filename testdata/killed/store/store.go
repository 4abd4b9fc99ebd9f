// Package store is external code (not observed): the service's backend,
// whose answers depend on the order of the requests, as a server's state
// does.
package store

import (
	"runtime"
	"sync/atomic"
	"time"
)

// Store counts the requests it served.
type Store struct{ served atomic.Int64 }

// Put stores n under key for worker (-1: a request): it answers with the
// number of requests served before it.
func (s *Store) Put(worker int, key string, n int) int {
	runtime.Gosched()
	return int(s.served.Add(1)) + len(key)
}

// Stamp is the backend's clock: a counter, so that its values differ.
func (s *Store) Stamp() int64 { return s.served.Load() }

// Pause waits a while, as a request to a backend does.
func (s *Store) Pause() { time.Sleep(500 * time.Microsecond) }
