// Package text is external code that hands out byte slices whose capacity
// is not their length: a buffer with room to grow, and a subslice of its
// argument.
package text

// Load returns s in a new buffer with room to grow, as a reader's buffer
// has.
func Load(s string) []byte {
	b := make([]byte, len(s), len(s)+32)
	copy(b, s)
	return b
}

// TrimLeft returns b without its leading spaces: a subslice of b.
func TrimLeft(b []byte) []byte {
	for len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	return b
}
