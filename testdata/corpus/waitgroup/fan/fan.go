// Package fan is the observed set of the waitgroup corpus program: its
// goroutines synchronise through a *sync.WaitGroup and a *sync.Mutex they
// get as pointer parameters. Objects that never cross the boundary run
// natively (in capture and replay); a WaitGroup that external code passes
// in is an outcall like any external object.
package fan

import (
	"math/rand"
	"os"
	"sync"
)

// Sizes looks up, on one goroutine per name, the length of each
// environment variable plus a random jitter, and returns their sum.
func Sizes(names []string) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for _, n := range names {
		wg.Add(1)
		go measure(&wg, &mu, &total, n)
	}
	wg.Wait()
	return total
}

func measure(wg *sync.WaitGroup, mu *sync.Mutex, total *int, name string) {
	defer wg.Done()
	n := len(os.Getenv(name)) + rand.Intn(3)
	mu.Lock()
	*total += n
	mu.Unlock()
}

// Spread adds n to a fresh counter from k goroutines (each adds n/k and
// a random 0 or 1) and returns the total.
func Spread(n, k int) int64 {
	var done sync.WaitGroup
	var once sync.Once
	var sum int64
	var smu sync.RWMutex
	share := 0
	for range k {
		done.Add(1)
		go func(wg *sync.WaitGroup, once *sync.Once) {
			defer wg.Done()
			// Which goroutine runs this is an interleaving inside the
			// observed set, which replay does not reproduce: no outcall
			// in it (docs/divergence.md).
			once.Do(func() { share = n / k })
			d := int64(share + rand.Intn(2))
			smu.Lock()
			sum += d
			smu.Unlock()
		}(&done, &once)
	}
	done.Wait()
	smu.RLock()
	defer smu.RUnlock()
	return sum
}

// Work is a worker that external code starts with a WaitGroup of its own:
// Done on it is an outcall (the WaitGroup came from outside).
func Work(wg *sync.WaitGroup, name string, out *int) {
	defer wg.Done()
	*out = len(os.Getenv(name))
}
