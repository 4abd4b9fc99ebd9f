// Package ptrslice: an exported function given a pointer to a slice the
// caller owns, as montanaflynn/stats' Describe takes its percentiles
// (percentiles *[]float64), and returning a description holding a slice
// of an unexported element type.
package ptrslice

// Description summarises a dataset.
type Description struct {
	Count       int
	Max         float64
	Percentiles []percentile
}

type percentile struct {
	Percentile float64
	Value      float64
}

// Describe describes input and, for each of *ps (when ps is not nil), the
// value at that percentile.
func Describe(input []float64, ps *[]float64) (*Description, error) {
	d := Description{Count: len(input)}
	for _, x := range input {
		d.Max = max(d.Max, x)
	}
	if ps != nil {
		for _, p := range *ps {
			i := int(p / 100 * float64(len(input)-1))
			d.Percentiles = append(d.Percentiles, percentile{p, input[i]})
		}
	}
	return &d, nil
}
