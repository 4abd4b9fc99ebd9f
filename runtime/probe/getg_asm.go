//go:build amd64 || arm64

package probe

// getg returns an identifier of the current goroutine that is unique among
// live goroutines: the address of its runtime g.
func getg() uintptr

// stackBounds returns the current goroutine's stack, [lo, hi).
func stackBounds() (lo, hi uintptr)
