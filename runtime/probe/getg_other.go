//go:build !amd64 && !arm64

package probe

import (
	"runtime"
	"strconv"
)

// getg returns the goroutine ID parsed from the stack header: portable and
// correct, but about a microsecond per call. amd64 and arm64 use assembly.
func getg() uintptr {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	// "goroutine 123 [running]:..."
	const prefix = len("goroutine ")
	i := prefix
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	id, _ := strconv.ParseUint(string(b[prefix:i]), 10, 64)
	return uintptr(id)
}

// stackBounds returns bounds that contain every address: without the
// runtime's g, any address might be on the stack (objects.lookup then takes
// its always-safe path).
func stackBounds() (lo, hi uintptr) { return 0, ^uintptr(0) }
