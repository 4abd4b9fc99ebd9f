// Package bridge holds function variables and fields that the observed
// package fills and other packages call (go-toml's internal/parserbridge,
// which unstable fills in its init and the root toml package calls).
package bridge

// Step advances a parser passed as an any and returns the rest of b.
var Step func(p any, b []byte) (rest []byte)

// Skip drops n bytes; it needs no parser.
var Skip func(b []byte, n int) []byte

// Hooks holds a function that the observed package installs.
type Hooks struct {
	Count func(b []byte) int
}
