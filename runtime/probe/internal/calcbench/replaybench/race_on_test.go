//go:build race

package replaybench

// peakBoundKiB is TestReplayMemoryBounded's bound on peak RSS. The race
// detector's shadow memory multiplies the heap's footprint (177 MiB were
// measured where a build without it uses about 50), so under -race the
// bound is looser; a player that loads the whole log still exceeds it
// several times over (410 MiB without the detector).
const peakBoundKiB = 384 << 10
