// Package scan is observed. Its function values reach external code
// without an incall returning them or an outcall taking them: its init
// stores a closure and a function in bridge's variables, Install writes a
// closure into an external struct's field, and the test passes one of its
// functions (Double) back in as a value.
package scan

import "example.com/escapedfuncs/bridge"

// Parser counts the steps it has taken.
type Parser struct {
	steps int
}

// NewParser returns a parser that has taken no step.
func NewParser() *Parser { return &Parser{} }

// Steps returns how many steps the parser has taken.
func (p *Parser) Steps() int { return p.steps }

func (p *Parser) step(b []byte) []byte {
	p.steps++
	return b[1:]
}

func skip(b []byte, n int) []byte { return b[n:] }

func init() {
	bridge.Step = func(p any, b []byte) []byte {
		return p.(*Parser).step(b)
	}
	bridge.Skip = skip
}

// Install sets h.Count to count the bytes of b that equal c.
func Install(h *bridge.Hooks, c byte) {
	h.Count = func(b []byte) int {
		n := 0
		for _, x := range b {
			if x == c {
				n++
			}
		}
		return n
	}
}

// Apply returns f of each of xs.
func Apply(xs []float64, f func(float64) float64) []float64 {
	var out []float64
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// Double returns 2x.
func Double(x float64) float64 { return 2 * x }
