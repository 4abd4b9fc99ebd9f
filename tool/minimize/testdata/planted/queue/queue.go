// Package queue dispatches jobs to workers. A job is submitted at a
// priority, may be cancelled, and is started by a worker at a service
// level: the lowest level at or above its priority.
//
// It holds a planted bug for capture minimize's tests: Cancel leaves a
// tombstone (a nil priority) so that a late Start can tell a cancelled job
// from an unknown one, and Start reads the priority through it in the work
// it hands to the pool, which calls it back.
package queue

import (
	"sort"
	"time"

	"example.com/planted/pool"
)

var (
	levels  = []int{1, 2, 4, 8, 16} // service levels, ascending
	prio    = map[string]*int{}
	started = map[string]time.Time{}
)

// Submit queues job name at priority p; true if it replaces a submission
// of the same name.
func Submit(name string, p int) bool {
	_, again := prio[name]
	prio[name] = &p
	return again
}

// Cancel withdraws job name; false if it is not queued.
func Cancel(name string) bool {
	if p, ok := prio[name]; !ok || p == nil {
		return false
	}
	prio[name] = nil // a tombstone: Start tells a cancelled job from an unknown one
	return true
}

// Start hands job name to a worker and returns its service level, or -1
// for a job that is not queued.
func Start(name string) int {
	p, ok := prio[name]
	if !ok {
		return -1
	}
	i := pool.Do(func() int { return sort.SearchInts(levels, *p) })
	delete(prio, name)
	started[name] = time.Now()
	if i == len(levels) {
		i--
	}
	return levels[i]
}
