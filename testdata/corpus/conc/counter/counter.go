// Package counter is the observed package of the conc corpus program:
// incalls from many goroutines at once, each making outcalls; replay runs
// every logical goroutine on its own goroutine and releases boundary events
// in the recorded global order.
package counter

import (
	"strconv"
	"sync"
	"time"
)

// Tally counts events per key; safe for concurrent use.
type Tally struct {
	mu     sync.Mutex
	counts map[string]int
	last   time.Time
}

// New returns an empty tally.
func New() *Tally { return &Tally{counts: map[string]int{}} }

// Hit counts one event for key and returns the key's count.
func (t *Tally) Hit(key string, n int) int {
	now := time.Now() // an outcall in every incall
	t.mu.Lock()
	defer t.mu.Unlock()
	t.counts[key] += n
	if now.After(t.last) {
		t.last = now
	}
	return t.counts[key]
}

// Label formats a worker label (pure: runs natively).
func Label(i int) string { return "w" + strconv.Itoa(i) }
