// Package flags is a small flag set with a package-level default, shaped
// like github.com/spf13/pflag: an exported package variable that tests
// read but never assign (no WRITE_IN may appear), a receiver that crossed
// as a reference (replay must not re-encode it with contents), os.Args
// slices read by observed code (each a READ_OUT), and an object passed in
// as one type and returned inside an interface as another at the same
// address.
package flags

import (
	"io"
	"os"
	"strconv"
	"time"
)

// A Set is a named set of flags.
type Set struct {
	name  string
	n     int
	out   io.Writer
	flags []*Flag
}

// A Flag is one flag of a set.
type Flag struct {
	Name  string
	Value Value
}

// Value is the value of a flag.
type Value interface{ String() string }

// intValue is a flag value stored in the caller's int.
type intValue int

func (v *intValue) String() string { return strconv.Itoa(int(*v)) }

// Default is the package's default set. No test of its own assigns it
// before TestDefaultUntouched: its baseline was once encoded
// with contents and the first check as a bare reference, a WRITE_IN that
// replay could not decode.
var Default = New("default")

// Usage is called on errors; external code may replace it.
var Usage = func() {}

// New returns an empty set.
func New(name string) *Set { return &Set{name: name} }

// Add counts one more in s.
func (s *Set) Add() int {
	s.n++
	return s.n
}

// Add counts one more in the default set.
func Add() int { return Default.Add() }

// IntVar defines a flag stored in *p: the flag's Value is p as an
// *intValue, an address replay first saw as the test's *int.
func (s *Set) IntVar(p *int, name string) *Flag {
	f := &Flag{Name: name, Value: (*intValue)(p)}
	s.flags = append(s.flags, f)
	return f
}

// Describe renders d (an outcall on a pointer: it numbers an object).
func (s *Set) Describe(d *time.Duration) string { return d.String() }

// Args returns the command line's arguments after the program name: a
// read of os.Args (replay once read the harness's own).
func Args() []string { return os.Args[1:] }
