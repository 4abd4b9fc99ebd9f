// Package ext is external to the observed set: a shape the observed code
// does not know, and a clock.
package ext

import "time"

// Circle is a shape of another package.
type Circle struct{ R float64 }

// Area of the circle.
func (c Circle) Area() float64 { return 3 * c.R * c.R }

// Name of the circle.
func (c Circle) Name() string { return "circle" }

// Clock reads the time.
type Clock struct{ Offset time.Duration }

// Now returns the offset wall-clock time.
func (c *Clock) Now() time.Time { return time.Now().Add(c.Offset) }
