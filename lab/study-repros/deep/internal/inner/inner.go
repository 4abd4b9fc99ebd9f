// Package inner is an internal package below the module root (go-cmp's
// cmp/internal/diff, cmp/internal/value, ...): only code under deep/ may
// import it, and the replay harness lives at the module root.
package inner

// Twice doubles n.
func Twice(n int) int { return 2 * n }
