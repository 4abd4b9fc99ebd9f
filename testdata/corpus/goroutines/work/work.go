// Package work is the observed set: it starts goroutines (named functions,
// method values and function literals) that make outcalls of their own.
package work

import (
	"math/rand"
	"os"
	"sync"
)

// Sum adds, for each x, x*x plus a random number drawn on a goroutine of
// its own.
func Sum(xs []int) int {
	ch := make(chan int)
	for _, x := range xs {
		go square(x, ch)
	}
	total := 0
	for range xs {
		total += <-ch
	}
	return total
}

func square(x int, ch chan<- int) {
	ch <- x*x + rand.Intn(10)
}

// Pool reads environment variables concurrently.
type Pool struct {
	mu   sync.Mutex
	seen map[string]string
}

func (p *Pool) fetch(done chan<- bool, names ...string) {
	for _, n := range names {
		v := os.Getenv(n)
		p.mu.Lock()
		p.seen[n] = v
		p.mu.Unlock()
	}
	done <- true
}

// Lookup reads each group of names on a goroutine of its own and returns
// how many names had a value.
func Lookup(groups [][]string) int {
	p := &Pool{seen: map[string]string{}}
	done := make(chan bool)
	for _, g := range groups {
		go p.fetch(done, g...)
	}
	for range groups {
		<-done
	}
	n := 0
	for _, v := range p.seen {
		if v != "" {
			n++
		}
	}
	return n
}

// Crash fails on a goroutine of its own: the process dies.
func Crash(reason string) {
	done := make(chan struct{})
	go func() {
		if reason != "" {
			panic("worker failed: " + reason)
		}
		close(done)
	}()
	<-done
}
