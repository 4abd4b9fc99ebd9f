// Package firstfield reproduces a fault the study found, embedptr reversed
// (go-cmp v0.7.0 cmp/internal/teststructs, createStructD in cmp's tests):
// a test calls a method of an embedded struct, s.Inner.SetPrivate(2), on a
// *Inner that is the address of the first field of its *Outer, before it
// calls a method of the *Outer itself, s.SetPrivate(4). Replay made an
// Inner when it first saw the address and could not hand it out as the
// Outer later: "object N is first a *Inner, then a *Outer at the same
// address".
package firstfield

// Inner is the first field of Outer.
type Inner struct{ Public, private int }

// SetPrivate sets the unexported field.
func (s *Inner) SetPrivate(i int) { s.private = i }

// Private returns the unexported field.
func (s *Inner) Private() int { return s.private }

// Outer embeds Inner first, at its own address.
type Outer struct {
	Inner
	Public, private int
}

// SetPrivate sets Outer's own unexported field.
func (s *Outer) SetPrivate(i int) { s.private = i }

// Sum adds what the methods set: Inner's private field, which the first
// incall set through the *Inner, and Outer's own.
func (s *Outer) Sum() int { return s.Inner.private + s.private }

// Total adds the public fields: Inner's, which the test set before the
// *Inner crossed, and Outer's own, which it set after (the capture once
// recorded the object's contents as an Inner only, and replay
// had 0 there).
func (s *Outer) Total() int { return s.Inner.Public + s.Public }
