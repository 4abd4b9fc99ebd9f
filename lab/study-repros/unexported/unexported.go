// Package unexported: its in-package (white-box) test calls an unexported
// function that makes an outcall (semver's TestParseConstraint calls
// parseConstraint, which calls (*regexp.Regexp).FindStringSubmatch).
package unexported

import "regexp"

var pair = regexp.MustCompile(`^(\w+)=(\w+)$`)

// Parse returns the key and value of "k=v".
func Parse(s string) (string, string) { return parse(s) }

func parse(s string) (string, string) {
	m := pair.FindStringSubmatch(s)
	if m == nil {
		return "", ""
	}
	return m[1], m[2]
}
