// Package quota hands out units of named quotas to concurrent workers. A
// quota holds defaultLimit units until SetLimit changes it.
package quota

import (
	"fmt"
	"sync"
)

const defaultLimit = 100

var (
	mu     sync.Mutex
	limits = map[string]int{}
	used   = map[string]int{}
)

// SetLimit sets the number of units quota key holds and returns the
// previous limit.
func SetLimit(key string, n int) int {
	mu.Lock()
	defer mu.Unlock()
	old := limit(key)
	limits[key] = n
	return old
}

// Take takes n units of quota key, or says why it cannot.
func Take(key string, n int) error {
	mu.Lock()
	defer mu.Unlock()
	if free := limit(key) - used[key]; n > free {
		return fmt.Errorf("take %d of %s: %d free", n, key, free)
	}
	used[key] += n
	return nil
}

// Release gives back n units of quota key and returns how many are still
// taken.
func Release(key string, n int) int {
	mu.Lock()
	defer mu.Unlock()
	used[key] -= n
	return used[key]
}

func limit(key string) int {
	if n, ok := limits[key]; ok {
		return n
	}
	return defaultLimit
}
