package rangeiter_test

import (
	"slices"
	"testing"

	"example.com/repros/rangeiter"
)

type employees []string

func (e employees) Values() func(func(string) bool) {
	return func(yield func(string) bool) {
		for _, s := range e {
			if !yield(s) {
				return
			}
		}
	}
}

func TestFind(t *testing.T) {
	got := rangeiter.Find("Al", employees{"Alice", "Bob", "Allie"}.Values())
	if !slices.Equal(got, []string{"Alice", "Allie"}) {
		t.Fatalf("Find = %q", got)
	}
}
