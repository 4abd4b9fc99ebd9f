// Package writeinptr reproduces a fault the study found (pflag;
// fixed): an in-package test points an exported
// variable at a new object whose interface field holds a value of an
// unexported type of another package (`CommandLine = &FlagSet{...,
// output: ioutil.Discard}` in pflag's ResetForTesting); replay cannot
// rebuild `io.discard` from the WRITE_IN's contents ("the recorded value
// does not fit the variable's type") until the transform generated a
// stand-in for the field's interface type.
package writeinptr

import "io"

// Set is a named counter set.
type Set struct {
	name string
	n    int
	out  io.Writer
}

// Default is the package's default set.
var Default = New("default")

// New returns an empty set.
func New(name string) *Set { return &Set{name: name} }

// Add counts one more in the default set.
func Add() int {
	Default.n++
	return Default.n
}
