// Package returnedfunc reproduces a fault the study found (the shop with api
// and storage observed: api's Server.Handler returns an http.HandlerFunc
// closure that net/http calls on its goroutines, and the handler passes
// closures to bolt's Batch, which calls them on a goroutine of its own). A
// closure that leaves observed code as a result, not as an outcall's
// argument, is no callback: its outcalls, made on external code's
// goroutine, are orphans that replay skips — and with them the outcall
// that passed the inner closure, so replay met the inner closure's
// callback without the closure: "the log holds a callback of a function
// value that the replayed code never passed to external code".
package returnedfunc

import "example.com/repros/returnedfunc/runner"

// Doubler returns a function that doubles n on r's goroutine.
func Doubler(r *runner.Runner) func(n int) int {
	return func(n int) int {
		var out int
		r.Do(func() { out = 2 * n })
		return out
	}
}
