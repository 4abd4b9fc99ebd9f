// Package embedhidden reproduces go-cache's layout: an exported type
// embeds a pointer to an unexported one (`type Cache struct{ *cache }`),
// whose exported methods the tests call through it (`tc.Set(k, v, d)`),
// while observed code keeps the inner object elsewhere too (go-cache's
// janitor goroutine runs `c.DeleteExpired()` on it).
package embedhidden

import "sync"

// Cache is what New hands out.
type Cache struct {
	*cache
}

type cache struct {
	mu    sync.Mutex
	items map[string]int
}

var registry []*cache

// New makes a cache and registers its inner object, as go-cache's New
// hands its inner cache to the janitor.
func New() *Cache {
	c := &cache{items: map[string]int{}}
	registry = append(registry, c)
	return &Cache{c}
}

// Set stores v under k.
func (c *cache) Set(k string, v int) {
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
}

// Total sums the items of every registered cache.
func Total() int {
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
