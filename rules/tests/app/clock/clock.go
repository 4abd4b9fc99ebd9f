// Package clock is the unobserved dependency of the rule tests: a source of
// nondeterminism behind an interface.
package clock

import "time"

// Clock reports the hour of the day.
type Clock interface{ Hour() int }

// System is the real clock.
type System struct{}

// Hour returns the current hour, local time.
func (System) Hour() int { return time.Now().Hour() }

// Fixed is a clock stopped at an hour.
type Fixed int

// Hour returns the fixed hour.
func (f Fixed) Hour() int { return int(f) }
