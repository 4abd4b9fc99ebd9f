// Package shapes is external to the observed set: shapes of exported and
// unexported types behind an interface, and errors of exported and
// unexported types that the observed code inspects by type.
package shapes

import (
	"errors"
	"fmt"
	"math"
)

// Shape is anything with an area.
type Shape interface{ Area() float64 }

// Circle is an exported shape used by pointer.
type Circle struct{ R float64 }

// Area of the circle.
func (c *Circle) Area() float64 { return math.Pi * c.R * c.R }

// NewCircle returns a circle of radius r.
func NewCircle(r float64) *Circle { return &Circle{R: r} }

// Square is an exported shape used by value.
type Square struct{ S float64 }

// Area of the square.
func (s Square) Area() float64 { return s.S * s.S }

// poly is a shape of a type the observed code cannot name; it also has
// sides.
type poly struct{ n int }

func (p *poly) Area() float64 { return float64(p.n) }
func (p *poly) Sides() int    { return p.n }

// blob has an area only.
type blob struct{}

func (blob) Area() float64 { return 1 }

// Make returns a shape of the given kind.
func Make(kind string) Shape {
	switch kind {
	case "circle":
		return &Circle{R: 2}
	case "square":
		return Square{S: 3}
	case "poly":
		return &poly{n: 5}
	}
	return blob{}
}

// TimeoutError is an exported error type.
type TimeoutError struct{ Op string }

func (e *TimeoutError) Error() string { return e.Op + ": timeout" }

// Timeout reports true.
func (e *TimeoutError) Timeout() bool { return true }

// busy is an error of an unexported type that says it is temporary.
type busy struct{ retry int }

func (b busy) Error() string   { return fmt.Sprintf("busy, retry in %d", b.retry) }
func (b busy) Temporary() bool { return true }

// ErrRefused is a sentinel.
var ErrRefused = errors.New("refused")

// Dial fails in one of several ways, wrapping the cause.
func Dial(addr string) error {
	switch addr {
	case "slow":
		return fmt.Errorf("dial %s: %w", addr, &TimeoutError{Op: "dial"})
	case "busy":
		return fmt.Errorf("dial %s: %w", addr, busy{retry: 3})
	case "closed":
		return fmt.Errorf("dial %s: %w", addr, ErrRefused)
	}
	return nil
}
