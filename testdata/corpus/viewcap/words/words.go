// Package words is observed: it passes on slices that it got from external
// code's results, so their capacity and array are the results'.
package words

import "example.com/viewcap/text"

// First returns the first word of s, a subslice of the buffer text.Load
// returned: its capacity is that buffer's.
func First(s string) []byte {
	b := text.Load(s)
	for i, c := range b {
		if c == ' ' {
			return b[:i]
		}
	}
	return b
}

// Clip returns b without its leading spaces, as text.TrimLeft returned it:
// a view of b's array.
func Clip(b []byte) []byte {
	return text.TrimLeft(b)
}
