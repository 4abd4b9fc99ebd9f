// Package storedfunc: the observed package's init stores closures and a
// function of its own in another package's variables, and external code
// calls them (go-toml's unstable fills internal/parserbridge.ScanScalar and
// friends, and the root toml package's decoder calls them on an
// unstable.Parser it holds).
package storedfunc

import "example.com/repros/storedfunc/bridge"

// Parser counts the bytes it has scanned.
type Parser struct {
	scanned int
}

// NewParser returns a parser that has scanned nothing.
func NewParser() *Parser { return &Parser{} }

// Scanned returns how many bytes the parser has scanned.
func (p *Parser) Scanned() int { return p.scanned }

func (p *Parser) step(b []byte) []byte {
	p.scanned++
	return b[1:]
}

func skip(b []byte, n int) []byte { return b[n:] }

func init() {
	bridge.Step = func(p any, b []byte) []byte {
		return p.(*Parser).step(b)
	}
	bridge.Skip = skip
}
