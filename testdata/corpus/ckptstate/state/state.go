// Package state keeps two kinds of state that a checkpoint once lost, as
// pflag keeps them: a pointer to the caller's slice that it writes and
// reads without an event (StringSliceVar), and an error type whose objects
// a caller makes and then calls methods on (InvalidValueError).
package state

import (
	"fmt"
	"strings"
)

// A List appends to the caller's slice, as pflag's slice flags do.
type List struct {
	dst     *[]string
	changed bool
}

// NewList keeps p: Add appends to *p.
func NewList(p *[]string) *List {
	return &List{dst: p}
}

// Add appends the comma-separated values in s.
func (l *List) Add(s string) {
	*l.dst = append(*l.dst, strings.Split(s, ",")...)
	l.changed = true
}

// String formats the values so far.
func (l *List) String() string {
	return "[" + strings.Join(*l.dst, " ") + "]"
}

// An OpError says that an operator is unknown.
type OpError struct {
	Op   string
	seen int
}

func (e *OpError) Error() string { return "unknown operator " + e.Op }

// Describe says what the error is and how often it was described before.
func (e *OpError) Describe() string {
	e.seen++
	return fmt.Sprintf("%s (%d)", e.Op, e.seen)
}
