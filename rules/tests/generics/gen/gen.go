// Package gen is the observed package of the go_replay_test of generic
// incalls: its exported generic functions are called by the test app with
// several type arguments, each an instantiation the replay harness must name.
package gen

import "cmp"

// Max returns the larger of a and b.
func Max[T cmp.Ordered](a, b T) T {
	if a > b {
		return a
	}
	return b
}

// Number is what Sum adds.
type Number interface {
	~int | ~int64 | ~float64
}

// Sum adds xs.
func Sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}
