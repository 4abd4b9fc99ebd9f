// Package cb is the observed set: it hands closures, method values and its
// own types to external code, which calls them back.
package cb

import (
	"bytes"
	"strconv"
	"strings"

	"example.com/callbacks/visit"
)

// Count counts the items of at least min bytes among those the visitor
// reaches (it stops after a "stop" item).
func Count(items []string, min int) int {
	n := 0
	visited := visit.Each(items, func(i int, s string) bool {
		if len(s) >= min {
			n++
		}
		return s != "stop"
	})
	return n*100 + visited
}

// Scale multiplies by K.
type Scale struct{ K int }

func (s *Scale) times(x int) int { return s.K * x }

// Twice applies a scale of k to x and x+1 through an external handler.
func Twice(k, x int) int {
	s := &Scale{K: k}
	return visit.Apply(visit.HandlerFunc(s.times), x)
}

// Upper is an io.Writer of the observed set: it upper-cases what it gets.
type Upper struct{ b []byte }

// Write appends p, upper-cased.
func (u *Upper) Write(p []byte) (int, error) {
	u.b = append(u.b, bytes.ToUpper(p)...)
	return len(p), nil
}

// Shout has msg written, by external code, to an Upper.
func Shout(msg string) string {
	u := &Upper{}
	if err := visit.Emit(u, msg); err != nil {
		return err.Error()
	}
	return string(u.b)
}

// Greet registers one greeting per name, which external code runs later on
// another goroutine, and returns them.
func Greet(names []string) string {
	var got []string
	for _, n := range names {
		visit.Later(func(suffix string) {
			got = append(got, "hi "+n+suffix)
		})
	}
	visit.Run("!")
	return strings.Join(got, ", ")
}

// Checked has external code call a closure that panics for negative x.
func Checked(x int) string {
	n, err := visit.Safe(func() int {
		if x < 0 {
			panic("negative input")
		}
		return x * 2
	})
	if err != nil {
		return err.Error()
	}
	return strconv.Itoa(n)
}
