// Package classify is the observed package of the typeident corpus program:
// type switches, type assertions (to concrete and to interface types) and
// errors.As on values that come from outside — outcall results and incoming
// interface arguments — and an observed struct embedding an external type.
package classify

import (
	"errors"
	"fmt"

	"example.com/typeident/shapes"
)

// Sided is implemented by shapes that have sides.
type Sided interface{ Sides() int }

// temporary is implemented by errors that say whether to retry.
type temporary interface{ Temporary() bool }

// Describe classifies s, an interface argument from the caller.
func Describe(s shapes.Shape) string {
	switch v := s.(type) {
	case nil:
		return "nothing"
	case *shapes.Circle:
		return fmt.Sprintf("circle r=%.0f", v.R)
	case shapes.Square:
		return fmt.Sprintf("square s=%.0f", v.S)
	case Sided:
		return fmt.Sprintf("%d-sided", v.Sides())
	default:
		return "other"
	}
}

// Make asks the shapes package for a shape (an outcall result) and
// inspects it with type assertions.
func Make(kind string) string {
	s := shapes.Make(kind)
	if c, ok := s.(*shapes.Circle); ok {
		return fmt.Sprintf("made circle %.0f", c.R)
	}
	if q, ok := s.(shapes.Square); ok {
		return fmt.Sprintf("made square %.0f", q.S)
	}
	if p, ok := s.(Sided); ok {
		return fmt.Sprintf("made %d-sided", p.Sides())
	}
	return fmt.Sprintf("made other %.0f", s.Area())
}

// Dial reports why dialing addr failed: errors.As to an exported type, to an
// interface, and errors.Is with a sentinel, on an error from an outcall.
func Dial(addr string) string {
	err := shapes.Dial(addr)
	var te *shapes.TimeoutError
	if errors.As(err, &te) {
		return "timeout in " + te.Op
	}
	var tmp temporary
	if errors.As(err, &tmp) {
		return fmt.Sprintf("temporary=%v", tmp.Temporary())
	}
	if errors.Is(err, shapes.ErrRefused) {
		return "refused"
	}
	if err != nil {
		return "error: " + err.Error()
	}
	return "ok"
}

// Tracked is an observed shape that embeds an external one: Area is promoted
// from *shapes.Circle.
type Tracked struct {
	*shapes.Circle
	Label string
}

// Track wraps a circle of radius r made by the shapes package.
func Track(r float64, label string) *Tracked {
	return &Tracked{Circle: shapes.NewCircle(r), Label: label}
}

// Total sums the areas of ss through the interface: for a *Tracked the
// promoted method is external code, an outcall.
func Total(ss []shapes.Shape) string {
	sum := 0.0
	for _, s := range ss {
		sum += s.Area()
	}
	return fmt.Sprintf("%.2f", sum)
}

// Own sums the areas of shapes it makes itself, one of them a *Tracked
// (interface dispatch inside the observed set).
func Own() string {
	return Total([]shapes.Shape{Track(1, "one"), shapes.Square{S: 2}})
}
