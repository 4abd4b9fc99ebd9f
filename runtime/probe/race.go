//go:build race

package probe

// raceEnabled: this is a -race build (see Stream.handoff).
const raceEnabled = true
