// Package calcbench is the benchmark subject: one exported function with
// two int arguments. runtime/probe/internal/calcbench holds its instrumented
// form, kept equal to the transform's output by TestBenchSubjectUpToDate.
package calcbench

//line calcbench/calc.go:5

var _capture_init = _capture_begin_init()

//line calcbench/calc.go:5

// Add adds two ints. It is not inlined, so that the uninstrumented baseline
// makes a real call like the instrumented wrapper does.
//
//go:noinline
func _capture_Add(a, b int) int { return a + b }
