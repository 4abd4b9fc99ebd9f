// Package cmps holds comparators, outside the observed set.
package cmps

// Strings orders two strings.
func Strings(a, b any) int {
	x, y := a.(string), b.(string)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
