// Package runner is external code (not observed) for the returnedfunc
// repro: it calls functions on goroutines of its own, as net/http calls a
// handler and bolt's Batch calls a transaction function.
package runner

// Runner runs the functions given to Do on one goroutine of its own.
type Runner struct{ q chan func() }

// New starts a Runner.
func New() *Runner {
	r := &Runner{q: make(chan func())}
	go func() {
		for f := range r.q {
			f()
		}
	}()
	return r
}

// Do runs f on the Runner's goroutine and waits for it.
func (r *Runner) Do(f func()) {
	done := make(chan struct{})
	r.q <- func() { f(); close(done) }
	<-done
}

// Call calls h(n) on a new goroutine and returns its result.
func Call(h func(int) int, n int) int {
	out := make(chan int)
	go func() { out <- h(n) }()
	return <-out
}
