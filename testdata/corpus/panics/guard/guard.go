// Package guard is the observed package of the panics corpus program:
// panics entering the observed set from an outcall (recovered inside, or
// passing through) and panics leaving it with a custom value.
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
