package transform

import (
	"fmt"
	"go/token"
	"go/types"
	"testing"
)

// Beyond four asserted interfaces, the empty interface gets placeholders for
// the combinations of up to three of them that fit the budget, smaller ones
// first and each size whole.
func TestSmallSubsets(t *testing.T) {
	ifaces := func(n int) []types.Type {
		var ts []types.Type
		for i := range n {
			obj := types.NewTypeName(token.NoPos, nil, fmt.Sprintf("I%d", i), nil)
			ts = append(ts, types.NewNamed(obj, types.NewInterfaceType(nil, nil), nil))
		}
		return ts
	}
	for _, c := range []struct{ n, want, largest int }{
		{5, 5 + 10 + 10, 3},
		{7, 7 + 21 + 35, 3},
		{8, 8 + 28, 2}, // the 56 triples would pass 64
		{10, 10 + 45, 2},
		{12, 12, 1}, // the 66 pairs would pass 64
		{20, 20, 1}, // singles always, as for every static type
	} {
		subs := smallSubsets(ifaces(c.n), maxAnyComboSize, maxAnyCombos)
		if len(subs) != c.want {
			t.Errorf("%d interfaces: %d subsets, want %d", c.n, len(subs), c.want)
		}
		seen := map[string]bool{}
		for i, s := range subs {
			if i > 0 && len(s) < len(subs[i-1]) {
				t.Errorf("%d interfaces: subset %d is smaller than the one before", c.n, i)
			}
			if len(s) > c.largest {
				t.Errorf("%d interfaces: a subset of %d, want at most %d", c.n, len(s), c.largest)
			}
			k := typeList(s)
			if seen[k] {
				t.Errorf("%d interfaces: %s twice", c.n, k)
			}
			seen[k] = true
		}
	}
}
