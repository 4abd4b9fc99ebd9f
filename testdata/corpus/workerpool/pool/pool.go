// Package pool is the observed set of the workerpool corpus program (as the
// shop's loadgen): worker pools whose workers receive jobs from a channel the
// pool made, so which worker gets which job is decided inside the observed
// set. Each worker tells the server its number, so a job given to another
// worker in replay is a different outcall.
package pool

import (
	"sync"

	"example.com/workerpool/fetch"
)

// Run requests every path on workers goroutines started by wg.Go, each
// ranging over an unbuffered channel, and returns the total of the answers.
func Run(c *fetch.Client, paths []string, workers int) int {
	jobs := make(chan string) // unbuffered: a job goes to a free worker
	perWorker := make([]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for p := range jobs {
				perWorker[w] += c.Do(w, p)
			}
		})
	}
	for _, p := range paths {
		jobs <- p
	}
	close(jobs)
	wg.Wait()
	total := 0
	for _, n := range perWorker {
		total += n
	}
	return total
}

// Fanout requests every path on workers goroutines started by go
// statements of a named function, each receiving with `v, ok := <-jobs`
// from a buffered channel, and collects the answers from a channel of its
// own.
func Fanout(c *fetch.Client, paths []string, workers int) int {
	jobs := make(chan string, 2)
	results := make(chan int)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go worker(c, w, jobs, results, &wg)
	}
	go func() {
		for _, p := range paths {
			jobs <- p
		}
		close(jobs)
	}()
	total := 0
	for range paths {
		total += <-results
	}
	wg.Wait()
	return total
}

func worker(c *fetch.Client, w int, jobs <-chan string, results chan<- int, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		p, ok := <-jobs
		if !ok {
			return
		}
		results <- c.Do(w, p)
	}
}
