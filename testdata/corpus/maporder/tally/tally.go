// Package tally is the observed set: it makes one outcall per map entry, so
// the order of its outcalls follows Go's randomised map iteration.
package tally

import "os"

// Total sums, for each name, its weight times the length of the
// environment variable of that name.
func Total(weights map[string]int) int {
	sum := 0
	for name, w := range weights {
		sum += w * len(os.Getenv(name))
	}
	return sum
}
