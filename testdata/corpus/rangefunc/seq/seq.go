// Package seq ranges over iterators its callers pass in, and over its own.
package seq

import (
	"iter"
	"strings"
)

// Matching returns the strings of it that contain sub, at most limit of
// them: the loop breaks out of the caller's iterator.
func Matching(sub string, limit int, it iter.Seq[string]) []string {
	var out []string
	for s := range it {
		if strings.Contains(s, sub) {
			out = append(out, s)
			if len(out) == limit {
				break
			}
		}
	}
	return out
}

// Sum adds the values of pairs, returning early at a negative key.
func Sum(pairs iter.Seq2[int, int]) int {
	total := 0
	for k, v := range pairs {
		if k < 0 {
			return -total
		}
		total += v
	}
	return total
}

// Upto is an iterator of the package's own.
func Upto(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

// Squares ranges over the package's own iterator: observed code, native.
func Squares(n int) int {
	s := 0
	for i := range Upto(n) {
		s += i * i
	}
	return s
}
