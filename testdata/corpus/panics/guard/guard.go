// Package guard is the observed package of the panics corpus program:
// panics entering the observed set from an outcall (recovered inside, or
// passing through), panics leaving it with a custom value, and a panic
// unwinding through thousands of boundary frames.
package guard

import (
	"fmt"

	"example.com/panics/ext"
)

// Safe parses s, turning a panic of the parser into an error.
func Safe(s string) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	return ext.Parse(s), nil
}

// Passthrough parses s and lets a panic of the parser leave the set again.
func Passthrough(s string) int { return ext.Parse(s) * 2 }

// TooBig is the panic value of Check.
type TooBig struct{ V int }

// Check panics for values above 10.
func Check(v int) int {
	if v > 10 {
		panic(TooBig{V: v})
	}
	return v
}

// TooDeep is the panic value of Nest.
type TooDeep struct{ Depth int }

// Nest calls visit with depth+1, which is to call Nest again (a recursion
// through the boundary, as go-cmp's diff.Difference and its EqualFunc),
// and panics once depth reaches limit: the panic unwinds through every
// level (study repro deeppanic).
func Nest(depth, limit int, visit func(depth int)) {
	if depth >= limit {
		panic(TooDeep{Depth: depth})
	}
	visit(depth + 1)
}
