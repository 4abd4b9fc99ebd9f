// Package deeppanic reproduces a fault the study found (go-cmp cmp/internal/diff
// observed, cmp.TestDiff's recursive transformers): observed code and an
// external callback call each other thousands of levels deep, and a panic
// raised at the bottom unwinds through every level. Under capture each
// level's wrapper recovered the panic to record it and raised it again
// inside its deferred call, so the Go runtime nested one panic per level,
// at a cost growing faster than the square of the depth: go-cmp's TestDiff
// ran for over 30 minutes, this test for 3.5 s of CPU. Fixed:
// past 8 boundary frames the probe raises it again outside the deferred
// call, a fresh panic.
package deeppanic

// Step calls f with depth; f is expected to call Step again with depth+1
// (as go-cmp's diff.Difference calls its EqualFunc, which compares
// nested values with Difference again).
type Step func(depth int)

// Descend calls f with depth.
func Descend(depth int, f Step) {
	f(depth)
}
