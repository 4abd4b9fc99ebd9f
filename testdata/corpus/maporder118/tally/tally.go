// Package tally is the observed set of a module at go 1.18: it makes one
// outcall per map entry and per channel element. Its language version has
// no range over functions, so the transform rewrites these loops into
// three-clause loops stepping through the map in key order (and receiving
// in the loop condition), which must compile at go 1.18 and iterate in the
// same order in the capture and in replay.
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

// Set is the names of the non-empty environment variables among keys.
func Set[K ~string](keys map[K]bool) []K {
	var set []K
	for k := range keys {
		if os.Getenv(string(k)) != "" {
			set = append(set, k)
		}
	}
	return set
}

// Lengths sums the lengths of the variables named on ch until it closes.
func Lengths(ch chan string) int {
	n := 0
	for name := range ch {
		n += len(os.Getenv(name))
	}
	return n
}
