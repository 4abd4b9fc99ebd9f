// Package cmdline reproduces two faults the study found (pflag, all 166
// logs): an exported variable pointing at an observed object (pflag's
// CommandLine).
//
// First: a test that never assigns CommandLine got a WRITE_IN of it before
// its first incall. The transform ended the package's initialisation in
// its last source file's init (here cmdline.go), before the generated
// file's init registered the variable, so the baseline was the first
// sight of the object, with its contents, and the first check encoded
// the same object as a bare reference. Replay numbered the objects of
// that baseline differently (the capture's test binary also ran the
// in-package test file's variable initialiser, whose outcall numbered an
// object first): "the recorded value does not fit the variable's type".
//
// Second: a test points CommandLine at a new set (ResetForTesting) and
// calls a method on it; replay re-encoded the receiver with the contents
// the WRITE_IN had given: "different arguments".
package cmdline

import "time"

// A Set is a named set of options.
type Set struct {
	name string
	n    int
}

// CommandLine is the default set.
var CommandLine = New("cmd")

// Usage is called on errors (a second exported variable: in replay it took
// the number the capture had given CommandLine).
var Usage = func() {}

// New returns an empty set.
func New(name string) *Set { return &Set{name: name} }

// Add counts one more in s.
func (s *Set) Add() int {
	s.n++
	return s.n
}

// Describe renders d: an outcall on a pointer, which numbers an object.
func (s *Set) Describe(d *time.Duration) string { return d.String() }
