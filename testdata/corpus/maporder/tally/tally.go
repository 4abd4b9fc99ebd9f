// Package tally is the observed set: it makes one outcall per map entry.
// Go randomises map iteration order; the transform makes this loop, whose
// body makes outcalls, iterate in key order in the capture and in replay
// alike, so check strict sees the same outcalls in the same order (corpus
// mapresync shows a map whose keys have no order).
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
