// Package user is external code that calls the function values the
// observed package stored in bridge.
package user

import (
	"example.com/escapedfuncs/bridge"
	"example.com/escapedfuncs/scan"
)

// Walk steps p through b, skipping a byte after each step, and returns
// the parser's count.
func Walk(p *scan.Parser, b []byte) int {
	for len(b) > 0 {
		b = bridge.Step(p, b)
		if len(b) > 0 {
			b = bridge.Skip(b, 1)
		}
	}
	return p.Steps()
}

// CountWith counts with the hook h holds.
func CountWith(h *bridge.Hooks, b []byte) int { return h.Count(b) }
