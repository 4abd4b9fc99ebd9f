// Package embedptr reproduces study fault F17 (go-cmp
// cmp/internal/teststructs.ParentStructA.PrivateStruct): an exported
// method returns a pointer to the first field of its receiver, the same
// address as the receiver; replay named the result by the receiver's type
// ("different results": *Outer#1 where the capture has *inner#1).
package embedptr

type inner struct{ N int }

// Outer embeds inner first.
type Outer struct {
	inner
	M int
}

// Inner returns the embedded part.
func (o *Outer) Inner() *inner { return &o.inner }

// Sum adds the parts.
func (o *Outer) Sum() int { return o.N + o.M }
