// Package cputime measures the CPU time a process has used, for the
// runtime's benchmarks: on a shared, noisy machine it measures a benchmark's
// work better than wall time (they report it as cpu-ns/op).
package cputime

import "time"

// Process is the CPU time (user+system) this process has used so far; 0
// where the system cannot tell.
func Process() time.Duration { return process() }
