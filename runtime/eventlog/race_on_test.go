//go:build race

package eventlog

// raceEnabled: the race detector slows the reader about tenfold, so the
// tests that read thousands of damaged copies sample fewer.
const raceEnabled = true
