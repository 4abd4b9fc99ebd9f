// Package cache is a cache whose constructor starts a reaper goroutine,
// shaped like golang-lru/v2's expirable.NewLRU (study repro selectcross): the
// reaper selects on done, a channel the constructor made and keeps in an
// unexported field of the *Cache it returns, and on a ticker's channel.
// Since log format 3 the returned *Cache leaves with its exported fields only
// (its contents raced the reaper), so done no longer crosses the boundary inside it: the
// reaper's done stays the set's own channel, operated natively.
package cache

import (
	"sync"
	"time"
)

const numBuckets = 10

// Cache holds keys that expire after a time to live.
type Cache struct {
	mu      sync.Mutex
	ttl     time.Duration
	items   map[string]time.Time
	done    chan struct{}
	reaper  sync.WaitGroup // Close waits for the reaper to end
	buckets []map[string]struct{}
	swept   int
}

// New returns a cache whose reaper removes expired keys every ttl/numBuckets.
func New(ttl time.Duration) *Cache {
	c := &Cache{ttl: ttl, items: map[string]time.Time{}, done: make(chan struct{})}
	c.buckets = make([]map[string]struct{}, numBuckets)
	for i := range c.buckets {
		c.buckets[i] = map[string]struct{}{}
	}
	c.reaper.Add(1)
	go func(done <-chan struct{}) {
		defer c.reaper.Done()
		ticker := time.NewTicker(ttl / numBuckets)
		defer ticker.Stop()
		for {
			select {
			case <-done:
				return
			case <-ticker.C:
				c.sweep()
			}
		}
	}(c.done)
	return c
}

// Add adds key; it expires after the cache's time to live.
func (c *Cache) Add(key string) {
	exp := time.Now().Add(c.ttl) // no outcall under the lock: the order in which the
	c.mu.Lock()                  // reaper and the caller take it is not recorded
	defer c.mu.Unlock()
	c.items[key] = exp
}

// Len returns the number of keys not yet removed.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Swept returns how many times the reaper ran.
func (c *Cache) Swept() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.swept
}

// Close stops the reaper and waits for it to end.
func (c *Cache) Close() {
	close(c.done)
	c.reaper.Wait()
}

func (c *Cache) sweep() {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, exp := range c.items {
		if now.After(exp) {
			delete(c.items, k)
		}
	}
	c.swept++
}
