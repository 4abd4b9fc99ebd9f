// Package calcbench is the benchmark subject: one exported function with
// two int arguments. runtime/probe/internal/calcbench holds its instrumented
// form, kept equal to the transform's output by TestBenchSubjectUpToDate.
package calcbench

// Add adds two ints. It is not inlined, so that the uninstrumented baseline
// makes a real call like the instrumented wrapper does.
//
//go:noinline
func Add(a, b int) int { return a + b }
