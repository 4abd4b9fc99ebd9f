// Package cmps holds comparators from outside the observed package.
package cmps

// Asc orders strings up.
func Asc(a, b string) int { return compare(a, b) }

// Desc orders strings down.
func Desc(a, b string) int { return compare(b, a) }

func compare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
