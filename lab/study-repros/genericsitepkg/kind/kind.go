// Package kind uses assert only in its tests (go-toml's unstable), so the
// build of the observed assert package does not contain it.
package kind

// Kind is a type argument of assert.Equal in kind's tests (unstable.Kind).
type Kind int

// Of returns the kind of a token.
func Of(s string) Kind { return Kind(len(s)) }
