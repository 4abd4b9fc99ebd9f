// Package reader is shaped like goldmark's definition list parser: a
// reader from outside hands out a line, a subslice of its source, and then
// the whole source, so replay sees the short view of the array first; the
// code then passes a subslice of the line on to another package.
package reader

import "example.com/lineview/ext"

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
