// Package flags holds a package variable that another package reads.
package flags

// Deterministic switches randomness off.
var Deterministic bool
