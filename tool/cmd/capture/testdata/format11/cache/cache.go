// Package cache embeds a pointer to an unexported type in an exported one,
// whose methods its tests call promoted. Its logs, of format 11, hold New's
// result with its exported fields only; format 12 adds the embedded
// pointer.
package cache

import "sync"

// Cache is what New hands out.
type Cache struct {
	*cache
	Name string
}

type cache struct {
	mu    sync.Mutex
	items map[string]int
}

// New makes a cache.
func New(name string) *Cache {
	return &Cache{&cache{items: map[string]int{}}, name}
}

// Set stores v under k.
func (c *cache) Set(k string, v int) {
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
}

// Get returns the value stored under k.
func (c *cache) Get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.items[k]
}
