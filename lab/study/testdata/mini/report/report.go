// Package report uses calc.
package report

import (
	"strings"

	"example.com/mini/calc"
)

// Total sums the numbers in a comma-separated list, skipping junk.
func Total(list string) int {
	var xs []int
	for _, f := range strings.Split(list, ",") {
		if n := calc.Parse(f); n >= 0 {
			xs = append(xs, n)
		}
	}
	return calc.Sum(xs)
}
