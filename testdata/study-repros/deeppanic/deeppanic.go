// Package deeppanic reproduces study fault F60 (go-cmp cmp/internal/diff
// observed, cmp.TestDiff's recursive transformers): observed code and an
// external callback call each other thousands of levels deep, and a panic
// raised at the bottom unwinds through every level. Under capture each
// level's panic event flushed the log, so the unwinding cost one log
// write per level: go-cmp's TestDiff ran for over 30 minutes.
package deeppanic

// Step calls f with depth; f is expected to call Step again with depth+1
// (as go-cmp's diff.Difference calls its EqualFunc, which compares
// nested values with Difference again).
type Step func(depth int)

// Descend calls f with depth.
func Descend(depth int, f Step) {
	f(depth)
}
