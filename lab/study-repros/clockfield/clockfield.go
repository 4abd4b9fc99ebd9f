// Package clockfield: an in-package test replaces an unexported field of
// an observed object (a clock function) before calling its exported
// methods (examples/shop/pricing's tests set p.clock).
package clockfield

import "time"

// Stamper stamps events with the time.
type Stamper struct {
	clock func() time.Time // tests replace it
}

// New returns a Stamper reading the real clock.
func New() *Stamper { return &Stamper{} }

// Stamp returns the current hour.
func (s *Stamper) Stamp() int {
	return s.now().Hour()
}

func (s *Stamper) now() time.Time {
	if s.clock != nil {
		return s.clock()
	}
	return time.Now()
}
