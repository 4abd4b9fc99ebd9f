// Package ext is external code that hands channels to the observed package
// and takes channels from it.
package ext

// Feed produces values on a channel of its own.
type Feed struct{ c chan int }

// NewFeed starts a feed of the given values (then closes it).
func NewFeed(vals ...int) *Feed {
	f := &Feed{c: make(chan int)}
	go func() {
		for _, v := range vals {
			f.c <- v
		}
		close(f.c)
	}()
	return f
}

// C is the feed's channel.
func (f *Feed) C() <-chan int { return f.c }

// Drain reads everything sent on c until it is closed, on a goroutine of
// its own, and delivers the values on the returned channel.
func Drain(c <-chan int) <-chan []int {
	done := make(chan []int, 1)
	go func() {
		var got []int
		for v := range c {
			got = append(got, v)
		}
		done <- got
	}()
	return done
}
