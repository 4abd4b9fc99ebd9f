//go:build unix

package probe

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user+system) this process has used: on a
// shared machine it measures a benchmark's work better than wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
