// Package bridge holds function variables that another package fills in its
// init and a third package calls (pelletier/go-toml's internal/parserbridge,
// which unstable fills and the root toml package calls).
package bridge

// Step advances a parser passed as an any.
var Step func(p any, b []byte) (rest []byte)

// Skip drops n bytes; it needs no parser.
var Skip func(b []byte, n int) []byte
