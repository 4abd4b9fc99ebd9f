// Package pipe is the observed set: it receives from and sends on channels
// that external code owns, and selects over them.
package pipe

import (
	"strings"
	"time"

	"example.com/channels/ext"
)

// Total adds everything received from in until it is closed.
func Total(in <-chan int) int {
	total := 0
	for v := range in {
		total += v
	}
	return total
}

// First receives one string, reporting whether in was still open.
func First(in <-chan string) (string, bool) {
	s, ok := <-in
	return strings.ToUpper(s), ok
}

// Forward sends the doubled values on out, then closes it.
func Forward(out chan<- int, xs []int) {
	for _, x := range xs {
		out <- 2 * x
	}
	close(out)
}

// Next receives the next value of an external feed.
func Next(f *ext.Feed) int {
	return <-f.C() + 100
}

// Wait returns the next value of in, or -1 after a timeout.
func Wait(in <-chan int, d time.Duration) int {
	select {
	case v := <-in:
		return v
	case <-time.After(d):
		return -1
	}
}

// Squares squares xs on a goroutine of its own (a channel of the observed
// set, operated natively) unless stop is closed first (a channel from
// outside, whose state replay takes from the log).
func Squares(xs []int, stop <-chan struct{}) []int {
	results := make(chan int)
	go func() {
		for _, x := range xs {
			results <- x * x
		}
	}()
	var out []int
	for range xs {
		select {
		case r := <-results:
			out = append(out, r)
		case <-stop:
			return out
		}
	}
	return out
}

// Poll reports, without blocking, whether a value is waiting on in.
func Poll(in <-chan int) (int, bool) {
	select {
	case v, ok := <-in:
		return v, ok
	default:
		return 0, false
	}
}
