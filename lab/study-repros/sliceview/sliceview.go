// Package sliceview: a parser that keeps its caller's input without copying
// it, hands out subslices of it, and tells where a subslice lies by its
// capacity, as go-toml's unstable.Parser.Range does (cause 2 of the
// wide-corpus study: slice aliasing).
package sliceview

// Parser splits its input into words.
type Parser struct {
	data []byte
	left []byte
}

// Reset starts over on b, which the parser keeps.
func (p *Parser) Reset(b []byte) { p.data, p.left = b, b }

// Next returns the next word, a subslice of the input, or nil at its end.
func (p *Parser) Next() []byte {
	for len(p.left) > 0 && p.left[0] == ' ' {
		p.left = p.left[1:]
	}
	i := 0
	for i < len(p.left) && p.left[i] != ' ' {
		i++
	}
	if i == 0 {
		return nil
	}
	w := p.left[:i]
	p.left = p.left[i:]
	return w
}

// Range returns the offset and length of b in the input. b must be a
// subslice of it: subslicing keeps the end of the backing array, so the
// difference of the capacities is the offset.
func (p *Parser) Range(b []byte) (off, n int) {
	off = cap(p.data) - cap(b)
	if off < 0 || off+len(b) > len(p.data) {
		panic("not a slice of the input")
	}
	return off, len(b)
}
