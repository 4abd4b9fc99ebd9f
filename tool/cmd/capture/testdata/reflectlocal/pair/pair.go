// Package pair is not observed and the codec does not import it: its
// tests call the observed generic function with its type.
package pair

// Key is a type argument of codec.Same.
type Key struct{ A, B int }
