package calcbench

// Plain is Add uninstrumented: the baseline of the overhead benchmark.
//
//go:noinline
func Plain(a, b int) int { return a + b }
