// Package calcbench is the benchmark subject: one exported function with
// two int arguments, and one that calls a function value of its caller
// (recursion through the boundary). runtime/probe/internal/calcbench holds
// its instrumented form, kept equal to the transform's output by
// TestBenchSubjectUpToDate.
package calcbench

// Add adds two ints. It is not inlined, so that the uninstrumented baseline
// makes a real call like the instrumented wrapper does.
//
//go:noinline
func Add(a, b int) int { return a + b }

// Descend calls f with depth. A caller whose f calls Descend again with
// depth+1 recurses through the boundary: every level is an incall
// (Descend) and an outcall (f), as go-cmp's diff.Difference and its
// EqualFunc do when an option compares values with a function.
func Descend(depth int, f func(depth int)) {
	f(depth)
}
