// Package stringview reproduces a fault the study found (goldmark's util,
// StringToReadOnlyBytes): an exported function returns a slice that views
// a string's memory. Two calls with one string literal return views of one
// array in the capture; replay decodes the string argument anew for each
// call, so the second result is a view of another array.
package stringview

import "unsafe"

// ReadOnlyBytes returns the bytes of s without copying them.
func ReadOnlyBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
