// Package ext is outside the observed set: a compactor that reads a byte
// slice and returns a new one, as gjson's pretty.Ugly does.
package ext

// Compact returns b without its spaces, in a new slice.
func Compact(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c != ' ' {
			out = append(out, c)
		}
	}
	return out
}
