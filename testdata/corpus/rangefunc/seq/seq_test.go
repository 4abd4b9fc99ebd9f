package seq_test

import (
	"slices"
	"testing"

	"example.com/rangefunc/seq"
)

func names() []string { return []string{"alice", "bob", "alina", "carl", "al"} }

func TestMatching(t *testing.T) {
	got := seq.Matching("al", 2, slices.Values(names()))
	if !slices.Equal(got, []string{"alice", "alina"}) {
		t.Fatalf("Matching = %q", got)
	}
	// An iterator of the test's own, a closure over its state.
	calls := 0
	own := func(yield func(string) bool) {
		for _, s := range names() {
			calls++
			if !yield(s) {
				return
			}
		}
	}
	got = seq.Matching("a", 10, own)
	if len(got) != 4 || calls != 5 {
		t.Fatalf("Matching = %q after %d yields", got, calls)
	}
}

func TestSum(t *testing.T) {
	if got := seq.Sum(slices.All([]int{5, 6, 7})); got != 18 {
		t.Fatalf("Sum = %d", got)
	}
	neg := func(yield func(int, int) bool) {
		_ = yield(1, 10) && yield(-1, 100) && yield(2, 1000)
	}
	if got := seq.Sum(neg); got != -10 {
		t.Fatalf("Sum = %d", got)
	}
}

func TestSquares(t *testing.T) {
	if got := seq.Squares(4); got != 14 {
		t.Fatalf("Squares = %d", got)
	}
}
