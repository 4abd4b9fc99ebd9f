// Package funcvalarg: an exported function takes a function value and
// calls it, and the test passes a function of the observed package itself
// (montanaflynn/stats: DescribePercentileFunc(input, allowNaN, &ps,
// stats.Percentile)).
package funcvalarg

// Apply returns f of each of xs.
func Apply(xs []float64, f func(float64) float64) []float64 {
	var out []float64
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// Double returns 2x.
func Double(x float64) float64 { return 2 * x }
