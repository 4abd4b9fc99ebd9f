// Package aftergen has a file that sorts after the transform's generated
// zz_capture_gen.go and declares an init function: the end of the
// package's initialisation (the baseline of its exported variables) must
// come after that init, in whatever order the build presents the files.
// It initialises before flags (its path sorts first), so its EndInit does
// not take flags' baseline again, which hid flags' spurious WRITE_IN.
package aftergen

// A Bound is an upper limit.
type Bound struct{ Max int }

// Limit is the package's bound; zzz_init.go's init sets it.
var Limit = &Bound{Max: 3}

// Over reports whether n is above b.
func (b *Bound) Over(n int) bool { return n > b.Max }

// Over reports whether n is above Limit.
func Over(n int) bool { return Limit.Over(n) }
