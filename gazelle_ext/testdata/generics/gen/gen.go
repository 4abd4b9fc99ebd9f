// Package gen is observed: its generic functions are called with type
// arguments of other packages.
package gen

// Number is what Sum adds.
type Number interface{ ~int | ~float64 }

// Sum adds xs.
func Sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}
