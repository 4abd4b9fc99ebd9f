// Package rangeiter ranges over an iterator its caller passes in, as
// sahilm/fuzzy's FindFromIter does.
package rangeiter

import (
	"iter"
	"strings"
)

// Find returns the strings of it that start with prefix.
func Find(prefix string, it iter.Seq[string]) []string {
	var out []string
	for s := range it {
		if strings.HasPrefix(s, prefix) {
			out = append(out, s)
		}
	}
	return out
}
