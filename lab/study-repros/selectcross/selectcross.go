// Package selectcross reproduces a fault the study found (golang-lru/v2 v2.0.7
// expirable.NewLRU): a constructor starts a reaper goroutine that selects on
// done, a channel the constructor made and keeps in an unexported field of
// the object it returns, and on a ticker's channel. done crosses the
// boundary inside the returned object's contents (the RETURN_IN encodes
// them); whether it had crossed when the reaper's select ran was a race
// between the two goroutines, decided again in replay: the log's select
// could name both channels and replay's only the ticker's ("different
// arguments" on "select in ...selectcross.New").
package selectcross

import (
	"sync"
	"time"
)

const numBuckets = 2000

// Cache holds keys that expire after a time to live.
type Cache struct {
	mu      sync.Mutex
	ttl     time.Duration
	items   map[string]time.Time
	done    chan struct{}
	buckets []map[string]struct{} // a large object: its encoding takes a while after done's
	swept   int
}

// New returns a cache whose reaper removes expired keys every ttl/numBuckets.
func New(ttl time.Duration) *Cache {
	c := &Cache{ttl: ttl, items: map[string]time.Time{}, done: make(chan struct{})}
	c.buckets = make([]map[string]struct{}, numBuckets)
	for i := range c.buckets {
		c.buckets[i] = map[string]struct{}{}
	}
	go func(done <-chan struct{}) {
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
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[key] = time.Now().Add(c.ttl)
}

// Len returns the number of keys not yet removed.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Close stops the reaper.
func (c *Cache) Close() { close(c.done) }

func (c *Cache) sweep() {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	for k, exp := range c.items {
		if now.After(exp) {
			delete(c.items, k)
		}
	}
	c.swept++
}
