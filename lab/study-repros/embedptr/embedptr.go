// Package embedptr reproduces a fault the study found (go-cmp
// cmp/internal/teststructs.ParentStructA.PrivateStruct and
// privateStruct.SetPrivate): an exported method returns a pointer to the
// first field of its receiver, the same address as the receiver; replay
// named the result by the receiver's type ("different results": *Outer#1
// where the capture has *inner#1), and could not pass it back as the
// receiver of the field's own method ("object 1 is a *Outer, not a
// *inner").
package embedptr

type inner struct{ N int }

// Set sets the inner part.
func (in *inner) Set(n int) { in.N = n }

// Outer embeds inner first.
type Outer struct {
	inner
	M int
}

// Inner returns the embedded part.
func (o *Outer) Inner() *inner { return &o.inner }

// Sum adds the parts.
func (o *Outer) Sum() int { return o.N + o.M }
