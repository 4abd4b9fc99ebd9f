// Package sliceshare: observed code returns a subslice of memory it keeps,
// and the caller fills it (cause 2 of the wide-corpus study: slice
// aliasing).
package sliceshare

// Buffer collects bytes.
type Buffer struct{ data []byte }

// New returns an empty buffer.
func New() *Buffer { return &Buffer{data: make([]byte, 0, 64)} }

// Extend grows the buffer by n zero bytes and returns them for the caller
// to fill.
func (b *Buffer) Extend(n int) []byte {
	b.data = append(b.data, make([]byte, n)...)
	return b.data[len(b.data)-n:]
}

// String is what the buffer holds.
func (b *Buffer) String() string { return string(b.data) }
