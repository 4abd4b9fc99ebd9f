// Package pool runs work for the queue's workers. It is not observed: its
// calls are the queue's outcalls, and the work it runs calls back into the
// queue.
package pool

var runs int

// Do runs work as a worker of the pool and returns its result.
func Do(work func() int) int {
	runs++
	return work()
}
