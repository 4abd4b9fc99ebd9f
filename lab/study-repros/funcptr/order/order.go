// Package order holds comparators that funcptr's tests hand to it: function
// values from outside the observed package.
package order

// Asc orders ints up.
func Asc(a, b int) int { return a - b }

// Desc orders ints down.
func Desc(a, b int) int { return b - a }
