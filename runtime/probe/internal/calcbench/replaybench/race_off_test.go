//go:build !race

package replaybench

// peakBoundKiB is TestReplayMemoryBounded's bound on peak RSS: about 50
// MiB are used; a player that loads the whole log takes over 400 MiB.
const peakBoundKiB = 128 << 10
