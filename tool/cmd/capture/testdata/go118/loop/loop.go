// Package loop depends on the semantics of its module's go 1.18 line.
package loop

// Addrs returns the address of the loop variable at each of n iterations:
// under go 1.18 one variable serves every iteration.
func Addrs(n int) []*int {
	var out []*int
	for i := 0; i < n; i++ {
		out = append(out, &i)
	}
	return out
}
