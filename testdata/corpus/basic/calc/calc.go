// Package calc is the observed package of the basic corpus program:
// exported functions and methods with scalar values, several and named
// results, variadic parameters, outcalls to the nondeterministic standard
// library and a read of another package's variable.
package calc

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"time"
)

// Greeting is computed at package initialisation from the environment.
var Greeting = "hello " + os.Getenv("USER_NAME")

// Add adds two ints.
func Add(a, b int) int { return a + b }

// DivMod returns the quotient and remainder.
func DivMod(a, b int) (q, r int) {
	q = a / b
	r = a % b
	return
}

// Sum adds any number of floats.
func Sum(xs ...float64) float64 {
	var t float64
	for _, x := range xs {
		t += x
	}
	return t
}

// Shout upper-cases s natively (strings is pure) and stamps it with the
// wall clock (an outcall).
func Shout(s string) string {
	now := time.Now()
	return fmt.Sprintf("%s@%d", strings.ToUpper(s), now.Unix()%2)
}

// Roll returns a pseudo-random die roll (an outcall to math/rand).
func Roll() int { return rand.Intn(6) + 1 }

// Args returns the number of command-line arguments (a read of os.Args).
func Args() int { return len(os.Args) }

// Counter counts.
type Counter struct {
	N    int
	name string
}

// NewCounter returns a counter.
func NewCounter(name string) *Counter { return &Counter{name: name} }

// Inc adds d and returns the new count (pointer receiver).
func (c *Counter) Inc(d int) int {
	c.N += d
	return c.N
}

// Name returns the counter's name (value receiver).
func (c Counter) Name() string { return c.name }

// Check fails on negative input.
func Check(x int) error {
	if x < 0 {
		return fmt.Errorf("negative: %d", x)
	}
	return nil
}

// Must panics on negative input.
func Must(x int) int {
	if x < 0 {
		panic("calc: negative input")
	}
	return x
}

// Apply calls f, a function value from outside (an outcall), and a closure
// of its own (run for real).
func Apply(f func(int) int, x int) int {
	double := func(v int) int { return 2 * v }
	return double(f(x)) + 1
}

// Export sets an environment variable from "key=value": an outcall whose
// argument is a multi-value call.
func Export(kv string) error {
	return os.Setenv(pair(kv))
}

func pair(kv string) (string, string) {
	i := strings.IndexByte(kv, '=')
	return kv[:i], kv[i+1:]
}
