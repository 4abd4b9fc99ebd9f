// Package lineview reproduces a fault the study found (goldmark's
// extension, its definition list parser): a reader from outside hands out
// a line, a subslice of its source, and then the whole source; the code
// passes a subslice of the line on to another package.
package lineview

import "example.com/repros/lineview/ext"

// A Reader reads lines of a source.
type Reader interface {
	PeekLine() []byte
	Source() []byte
}

// Indent returns the indentation of the reader's line after its marker,
// and the length of the whole source.
func Indent(r Reader) (int, int) {
	line := r.PeekLine()
	src := r.Source()
	return ext.Indent(line[1:]), len(src)
}
