// Package finalizer reproduces go-cache's New: the object it returns wraps
// the one its janitor goroutine holds, and a finalizer on the wrapper stops
// the janitor (`C := &Cache{c}; runtime.SetFinalizer(C, stopJanitor)`).
package finalizer

import (
	"runtime"
	"sync"
)

type cache struct {
	mu    sync.Mutex
	items map[string]int
	stop  chan bool
}

// Cache is what New returns.
type Cache struct{ *cache }

func (c *cache) run() {
	<-c.stop
}

func stopJanitor(c *Cache) { c.stop <- true }

// New returns a cache whose janitor stops when the cache is collected.
func New() *Cache {
	c := &cache{items: map[string]int{}, stop: make(chan bool)}
	go c.run()
	C := &Cache{c}
	runtime.SetFinalizer(C, stopJanitor)
	return C
}

// Set stores v under k.
func (c *cache) Set(k string, v int) {
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
}

// Get returns the value stored under k.
func (c *cache) Get(k string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[k]
	return v, ok
}
