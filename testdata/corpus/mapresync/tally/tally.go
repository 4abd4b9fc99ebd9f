// Package tally is the observed set: it makes one outcall per map entry.
// Its keys are structs, which have no order the transform could sort by, so
// the map is ranged natively and the order of the outcalls follows Go's
// randomised map iteration: check returns resynchronises the reordered
// outcalls, check strict reports them (corpus maporder shows the sorted
// iteration of maps with ordered keys).
package tally

import "os"

// Name is a map key without an order.
type Name struct{ Var string }

// Total sums, for each name, its weight times the length of the
// environment variable of that name.
func Total(weights map[Name]int) int {
	sum := 0
	for name, w := range weights {
		sum += w * len(os.Getenv(name.Var))
	}
	return sum
}
