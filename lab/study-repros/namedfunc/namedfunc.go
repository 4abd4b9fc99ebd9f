// Package namedfunc reproduces a fault the study found (go-cmp cmp/internal/diff):
// observed code calls a function value of a named func type it got from
// outside; the call was not instrumented, so replay called the recorded
// stand-in of the function value.
package namedfunc

// Match reports whether the i-th symbols are equal.
type Match func(i int) bool

// Count counts the indexes below n that match.
func Count(n int, f Match) int {
	c := 0
	for i := 0; i < n; i++ {
		if f(i) {
			c++
		}
	}
	return c
}
