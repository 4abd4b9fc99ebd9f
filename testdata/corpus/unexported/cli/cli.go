// Package cli is a small command whose in-package tests call its
// unexported functions and methods directly, as go-toml's internal/cli
// tests call (*Program).main: those calls enter the observed set from
// outside it, so they are incalls, and replay checks what they do.
package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Program sums the values of k=v arguments, printing the running total.
type Program struct {
	out   io.Writer
	total int
}

// New returns a program that prints to out.
func New(out io.Writer) *Program { return &Program{out: out} }

// Run runs a new program on args and returns its exit code.
func Run(out io.Writer, args []string) int { return New(out).main(args) }

func (p *Program) main(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(p.out, "usage: sum k=v...")
		return 2
	}
	for i := 0; i < len(args); i++ {
		k, v, ok := parseLine(args[i])
		if !ok {
			fmt.Fprintf(p.out, "bad argument %q\n", args[i])
			return 1
		}
		p.total += v
		fmt.Fprintf(p.out, "%s %d\n", k, p.total)
	}
	return 0
}

// parseLine splits "k=v" with a non-negative integer v.
func parseLine(s string) (string, int, bool) {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return "", 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return "", 0, false
	}
	return k, n, true
}

// scale is what a test takes as a function value.
func scale(n, by int) int { return n * by }

// unused is called by no test: it stays a plain function.
func unused(n int) int { return scale(n, 2) }
