// Package ops keeps function values of its own in a map that its
// initialisation fills, as semver's constraintOps: a checkpoint writes them
// by their functions' names, and replay of a segment binds the names to the
// function values its own initialisation made.
package ops

import "fmt"

type opFunc func(a, b int) int

var ops map[string]opFunc

func init() {
	ops = map[string]opFunc{
		"+": add,
		"-": sub,
		"*": mul,
	}
}

func add(a, b int) int { return a + b }
func sub(a, b int) int { return a - b }
func mul(a, b int) int { return a * b }

// Apply applies the operator op to a and b.
func Apply(op string, a, b int) (int, error) {
	f, ok := ops[op]
	if !ok {
		return 0, fmt.Errorf("unknown operator %s", op)
	}
	return f(a, b), nil
}

// Alias makes name another spelling of the operator op.
func Alias(name, op string) {
	ops[name] = ops[op]
}
