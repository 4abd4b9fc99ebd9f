// Package pool is the observed set of the wggo corpus program: it starts its
// workers with sync.WaitGroup.Go (Go 1.25) — a function literal, a method
// value, through a WaitGroup parameter and on a WaitGroup that external
// code passed in — and the workers make outcalls of their own (study repro
// waitgroupgo: sync starts these goroutines, not a go statement).
package pool

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
		wg.Go(func() {
			v := len(os.Getenv(n)) + rand.Intn(3)
			mu.Lock()
			total += v
			mu.Unlock()
		})
	}
	wg.Wait()
	return total
}

// Counter counts random draws made by its workers.
type Counter struct {
	mu    sync.Mutex
	draws []int
}

func (c *Counter) draw() {
	d := rand.Intn(100)
	c.mu.Lock()
	c.draws = append(c.draws, d)
	c.mu.Unlock()
}

// Draws runs k workers (a method value started by WaitGroup.Go, through a
// *sync.WaitGroup parameter) and returns how many draws were below 50.
func Draws(k int) int {
	c := &Counter{}
	var wg sync.WaitGroup
	spawn(&wg, k, c.draw)
	wg.Wait()
	n := 0
	for _, d := range c.draws {
		if d < 50 {
			n++
		}
	}
	return n
}

func spawn(wg *sync.WaitGroup, k int, f func()) {
	for range k {
		wg.Go(func() { f() })
	}
}

// Start runs a worker that reads name on wg, a WaitGroup of the caller's
// (it crossed the boundary): the caller waits for it. The worker reports
// the value's length on out.
func Start(wg *sync.WaitGroup, name string, out chan<- int) {
	c := &Counter{}
	wg.Go(c.draw)
	wg.Go(func() { out <- len(os.Getenv(name)) })
}

// Crash fails on a goroutine started by WaitGroup.Go: the process dies.
func Crash(reason string) {
	var wg sync.WaitGroup
	wg.Go(func() {
		if reason != "" {
			panic("worker failed: " + reason)
		}
	})
	wg.Wait()
}
