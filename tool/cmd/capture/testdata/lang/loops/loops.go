// Package loops ranges over maps and channels in every form, with loop
// bodies that make outcalls (os.Getenv), in code that compiles at go1.16:
// the transform rewrites these loops, and what it writes must compile at
// the module's language version and keep the loops' semantics there.
package loops

import (
	"net/url"
	"os"
	"sort"
	"strings"
)

// Key and Entry are this package's types, spelled by the generated helpers
// of a file without generics.
type (
	Key   string
	Entry struct{ Weight int }
)

// Total ranges with a key and a value.
func Total(weights map[string]int) int {
	sum := 0
	for name, w := range weights {
		sum += w * len(os.Getenv(name))
	}
	return sum
}

// Forms ranges with the key only, the value only, blanks, no variables,
// and by assignment to variables declared before the loop.
func Forms(m map[Key]Entry) (keys, weights, steps int, last string) {
	for k := range m {
		keys += len(os.Getenv(string(k)))
	}
	for _, e := range m {
		weights += e.Weight + len(os.Getenv("LANG_NONE"))
	}
	for _, _ = range m {
		steps += 1 + len(os.Getenv("LANG_NONE"))
	}
	for range m {
		steps += 1 + len(os.Getenv("LANG_NONE"))
	}
	var k Key
	var e Entry
	maxKey := Key("")
	for k, e = range m {
		weights += e.Weight + len(os.Getenv(string(k)))
		if k > maxKey {
			maxKey = k
		}
	}
	var a [1]Key
	for a[0] = range map[Key]bool{"LANG_A": true} { // assigned to an array element: native order (one entry)
		last = os.Getenv(string(a[0]))
	}
	return keys, weights, steps, string(maxKey) + "=" + last
}

// Jumps: continue and break, labelled ones from an inner loop, goto out of
// the loop, return from inside it.
func Jumps(m map[int]string) (sum int, visited int) {
outer:
	for k, v := range m {
		for i := 0; i < 3; i++ {
			visited++
			if i == 1 {
				continue outer
			}
			if k < 0 {
				break outer
			}
		}
		sum += len(os.Getenv(v))
	}
	for k := range m {
		if k%2 == 0 {
			continue
		}
		if len(os.Getenv("LANG_NONE")) > 0 {
			break
		}
		sum += k
	}
	for k := range m {
		if k > 1000 && os.Getenv("LANG_NONE") == "" {
			goto done
		}
	}
	sum++
done:
	return sum, visited
}

// Shared reports whether the closures and pointers made in a map range's
// and a channel range's iterations see one variable (before go1.22) or one
// per iteration (since): the rewritten loops must keep that.
func Shared(m map[string]int, ch chan string) (mapShared, chanShared bool) {
	var fs []func() string
	var ps []*int
	for k, v := range m {
		os.Getenv(k)
		fs = append(fs, func() string { return k })
		ps = append(ps, &v)
	}
	mapShared = len(fs) > 1 && fs[0]() == fs[1]() && ps[0] == ps[1]
	var cs []*string
	for s := range ch {
		os.Getenv(s)
		cs = append(cs, &s)
	}
	chanShared = len(cs) > 1 && cs[0] == cs[1]
	return mapShared, chanShared
}

// Deletes deletes entries not yet reached: they are not produced.
func Deletes(m map[int]bool) int {
	n := 0
	for k := range m {
		n += 1 + len(os.Getenv("LANG_NONE"))
		for j := range m {
			if j != k {
				delete(m, j)
			}
		}
	}
	return n
}

// Nested ranges over maps inside a map range, and a map of a type from
// another package (url.Values).
func Nested(q url.Values) string {
	var parts []string
	for k, vs := range q {
		for _, v := range map[string][]string{k: vs} {
			parts = append(parts, k+"="+strings.Join(v, ",")+os.Getenv("LANG_NONE"))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, "&")
}

// Local ranges over a map whose value type is declared inside the function
// (a helper cannot spell it before go1.18: native order; one entry).
func Local() int {
	type local struct{ n int }
	m := map[string]local{"LANG_A": {2}}
	n := 0
	for k, v := range m {
		n += v.n * len(os.Getenv(k))
	}
	return n
}

// Unordered ranges over a map whose keys have no order to sort by: native
// at every version (one entry).
func Unordered() int {
	n := 0
	for k, v := range map[struct{ s string }]int{{"LANG_B"}: 3} {
		n += v * len(os.Getenv(k.s))
	}
	return n
}

// Drain ranges over a channel: with a variable, by assignment, without.
func Drain(ch, ch2, ch3 chan string) int {
	n := 0
	for s := range ch {
		n += len(os.Getenv(s))
	}
	var s string
	for s = range ch2 {
		n += len(s)
	}
	for range ch3 {
		n++
	}
	return n
}
