// Package cache has go-cache's layout: an exported type embeds a pointer
// to an unexported one (`type Cache struct{ *cache }`), whose exported
// methods the tests call through it, promoted (`c.Set(k, v)`), while
// observed code keeps the inner object too: a janitor goroutine works on
// it, and a registry lists it.
package cache

import "sync"

// Cache is what New hands out: external code sees the inner object only
// as the receiver of the methods promoted from it.
type Cache struct {
	*cache
}

type cache struct {
	mu    sync.Mutex
	items map[string]int
	sweep chan chan int
}

var (
	regMu    sync.Mutex
	registry []*cache
)

// New makes a cache, registers its inner object and starts the janitor
// that sweeps it.
func New() *Cache {
	c := &cache{items: map[string]int{}, sweep: make(chan chan int)}
	regMu.Lock()
	registry = append(registry, c)
	regMu.Unlock()
	go c.janitor()
	return &Cache{c}
}

// janitor drops the negative items at each request of Sweep and answers
// how many it dropped.
func (c *cache) janitor() {
	for done := range c.sweep {
		n := 0
		c.mu.Lock()
		for k, v := range c.items {
			if v < 0 {
				delete(c.items, k)
				n++
			}
		}
		c.mu.Unlock()
		done <- n
	}
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

// Sweep has the janitor drop the negative items; it returns how many it
// dropped.
func (c *cache) Sweep() int {
	done := make(chan int)
	c.sweep <- done
	return <-done
}

// Close stops the janitor.
func (c *cache) Close() { close(c.sweep) }

// Total sums the items of every registered cache.
func Total() int {
	regMu.Lock()
	defer regMu.Unlock()
	n := 0
	for _, c := range registry {
		c.mu.Lock()
		for _, v := range c.items {
			n += v
		}
		c.mu.Unlock()
	}
	return n
}
