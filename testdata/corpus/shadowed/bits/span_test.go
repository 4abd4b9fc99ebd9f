package bits

import "testing"

// max and min hide the builtins in the test binary, which compiles this
// file with the package's generated file.
func max(x, y uint) uint {
	if x > y {
		return x
	}
	return y
}

func min(x, y uint) uint {
	if x < y {
		return x
	}
	return y
}

func TestSpan(t *testing.T) {
	for _, c := range [][2]uint{{3, 10}, {10, 3}, {5, 5}} {
		if got, want := Span(c[0], c[1]), max(c[0], c[1])-min(c[0], c[1]); got != want {
			t.Fatalf("Span(%d, %d) = %d, want %d", c[0], c[1], got, want)
		}
	}
}
