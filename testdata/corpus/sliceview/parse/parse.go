// Package parse keeps its caller's input without copying it and hands out
// subslices of it: the caller passes those subslices back, and the package
// tells where one lies in the input by its capacity (subslicing keeps the
// end of the backing array), or reads what the caller wrote into the input
// through its own slice of it.
package parse

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

// Range returns the offset and length of b in the input; it panics if b
// is not a subslice of it.
func (p *Parser) Range(b []byte) (off, n int) {
	off = cap(p.data) - cap(b)
	if off < 0 || off+len(b) > len(p.data) {
		panic("not a slice of the input")
	}
	return off, len(b)
}

// Rest is the input not parsed yet.
func (p *Parser) Rest() string { return string(p.left) }

// Tokens is a list of numbers kept in the caller's slice.
type Tokens struct{ all []int }

// Keep keeps all.
func (t *Tokens) Keep(all []int) { t.all = all }

// Index returns where part, a subslice of the kept numbers, starts.
func (t *Tokens) Index(part []int) int { return cap(t.all) - cap(part) }

// Sum adds the kept numbers.
func (t *Tokens) Sum() int {
	n := 0
	for _, v := range t.all {
		n += v
	}
	return n
}
