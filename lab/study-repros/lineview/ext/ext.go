// Package ext measures indentation for lineview.
package ext

// Indent returns the number of leading spaces of line.
func Indent(line []byte) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n
}
