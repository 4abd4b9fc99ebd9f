// Package user calls the functions another package stored in bridge.
package user

import (
	"example.com/repros/storedfunc"
	"example.com/repros/storedfunc/bridge"
)

// Scan steps p through b, skipping a byte after each step, and returns the
// parser's count.
func Scan(p *storedfunc.Parser, b []byte) int {
	for len(b) > 0 {
		b = bridge.Step(p, b)
		if len(b) > 0 {
			b = bridge.Skip(b, 1)
		}
	}
	return p.Scanned()
}
