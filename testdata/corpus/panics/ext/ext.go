// Package ext is external to the observed set; its functions panic.
package ext

import "errors"

// Parse returns len(s) and panics with an error on empty input.
func Parse(s string) int {
	if s == "" {
		panic(errors.New("ext: empty input"))
	}
	return len(s)
}
