// Package geom is the observed package of the shapes corpus program:
// interface calls whose dynamic type is observed (run for real in replay)
// or external (answered from the log), an external io.Writer and clock
// replaced by placeholders, and observed pointers passed back in.
package geom

import (
	"fmt"
	"io"
	"time"

	"example.com/shapes/ext"
)

// Shape is anything with an area.
type Shape interface {
	Area() float64
	Name() string
}

// Square is the observed shape.
type Square struct{ S float64 }

// Area of the square.
func (q Square) Area() float64 { return q.S * q.S }

// Name of the square.
func (q Square) Name() string { return "square" }

// Total sums the areas.
func Total(shapes []Shape) float64 {
	t := 0.0
	for _, s := range shapes {
		t += s.Area()
	}
	return t
}

// Describe writes a line about s to w.
func Describe(w io.Writer, s Shape) error {
	_, err := fmt.Fprintf(w, "%s:%.1f\n", s.Name(), s.Area())
	return err
}

// Registry keeps shapes with the time they were added.
type Registry struct {
	clock *ext.Clock
	items []Shape
	added []time.Time
}

// NewRegistry returns a registry reading clock.
func NewRegistry(clock *ext.Clock) *Registry { return &Registry{clock: clock} }

// Add adds s and returns the number of shapes.
func (r *Registry) Add(s Shape) int {
	r.items = append(r.items, s)
	r.added = append(r.added, r.clock.Now())
	return len(r.items)
}

// Largest returns the shape with the largest area.
func (r *Registry) Largest() Shape {
	var best Shape
	for _, s := range r.items {
		if best == nil || s.Area() > best.Area() {
			best = s
		}
	}
	return best
}

// Merge moves the shapes of other into r (an observed pointer passed in).
func (r *Registry) Merge(other *Registry) int {
	r.items = append(r.items, other.items...)
	r.added = append(r.added, other.added...)
	other.items, other.added = nil, nil
	return len(r.items)
}

// Span is the time between the first and last additions.
func (r *Registry) Span() time.Duration {
	if len(r.added) < 2 {
		return 0
	}
	return r.added[len(r.added)-1].Sub(r.added[0])
}

// Skew is the clock's offset: a field of an external struct read through a
// pointer (READ_OUT).
func (r *Registry) Skew() time.Duration { return r.clock.Offset }
