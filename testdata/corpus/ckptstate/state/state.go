// Package state keeps the three kinds of state that a checkpoint once lost
// or refused, as real modules keep them: function values of its own in a
// map that initialisation fills (semver's constraintOps), a pointer to the
// caller's slice that it writes and reads without an event (pflag's
// StringSliceVar), and an error type whose objects a caller makes and then
// calls methods on (pflag's InvalidValueError).
package state

import (
	"fmt"
	"strings"
)

type opFunc func(a, b int) int

var ops map[string]opFunc

func init() {
	ops = map[string]opFunc{
		"+": add,
		"-": sub,
		"*": mul,
	}
}

func add(a, b int) int { return a + b }
func sub(a, b int) int { return a - b }
func mul(a, b int) int { return a * b }

// Apply applies the operator op to a and b.
func Apply(op string, a, b int) (int, error) {
	f, ok := ops[op]
	if !ok {
		return 0, &OpError{Op: op}
	}
	return f(a, b), nil
}

// Alias makes name another spelling of the operator op.
func Alias(name, op string) {
	ops[name] = ops[op]
}

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
