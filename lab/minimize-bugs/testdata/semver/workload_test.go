package semver_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/Masterminds/semver/v3"
)

// TestResolve is the workload of a dependency resolver: it parses the
// versions a registry offers for each package and sorts them, then, for
// each of 30 projects, picks for every requirement the highest version
// that satisfies its constraint. One project, the 25th, asks for
// "^0.0.3" of leftpad: a caret on a 0.0.z version allows that patch
// only. Before v3.2.0 (issue 181) semver let ^0.0.3 match 0.1.3 too, and
// the resolver picked it.
func TestResolve(t *testing.T) {
	registry := map[string][]string{
		"router":  {"1.0.0", "1.1.0", "1.2.0", "1.2.1", "1.3.0", "2.0.0", "2.1.0"},
		"logger":  {"0.9.0", "1.0.0", "1.0.1", "1.1.0", "1.4.2", "1.5.0"},
		"orm":     {"2.0.0", "2.1.0", "2.2.0", "3.0.0", "3.0.1", "3.1.0"},
		"json":    {"0.1.0", "0.2.0", "0.2.1", "0.3.0", "0.4.0"},
		"leftpad": {"0.0.1", "0.0.2", "0.0.3", "0.1.0", "0.1.3", "0.2.0"},
		"cache":   {"1.0.0", "1.1.0", "1.1.5", "1.2.0", "2.0.0"},
		"metrics": {"0.5.0", "0.6.0", "0.6.1", "0.7.0", "1.0.0"},
	}
	names := make([]string, 0, len(registry))
	for name := range registry {
		names = append(names, name)
	}
	sort.Strings(names)
	versions := map[string][]*semver.Version{}
	for _, name := range names {
		var vs []*semver.Version
		for _, s := range registry[name] {
			v, err := semver.NewVersion(s)
			if err != nil {
				t.Fatal(err)
			}
			vs = append(vs, v)
		}
		sort.Sort(sort.Reverse(semver.Collection(vs)))
		versions[name] = vs
	}
	wants := [][2]string{
		{"router", "^1.2.0"}, {"logger", "~1.0.0"}, {"orm", ">= 2.1, < 3"}, {"json", "^0.2.0"},
		{"cache", "1.1.x"}, {"metrics", "~0.6"}, {"router", "2.x"}, {"logger", ">1.1.0"},
		{"orm", "^3.0.0"}, {"json", "0.3 - 0.4"}, {"cache", "<2"}, {"metrics", "^0.5.0 || ^1"},
	}
	var picked []string
	for p := 0; p < 30; p++ {
		var reqs [][2]string
		for i := 0; i < 3; i++ {
			reqs = append(reqs, wants[(p*5+i*7)%len(wants)])
		}
		if p == 24 {
			reqs = append(reqs, [2]string{"leftpad", "^0.0.3"})
		}
		var deps []string
		for _, r := range reqs {
			c, err := semver.NewConstraint(r[1])
			if err != nil {
				t.Fatal(err)
			}
			got := "none"
			for _, v := range versions[r[0]] {
				if c.Check(v) {
					got = v.String()
					break
				}
			}
			deps = append(deps, fmt.Sprintf("%s %s: %s", r[0], c, got))
		}
		picked = append(picked, strings.Join(deps, ", "))
	}
	t.Logf("project 25: %s", picked[24])
}
