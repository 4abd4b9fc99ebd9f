// Package readvar: observed code whose only use of an import is a read of
// that package's variable (go-cmp's cmp/internal/diff reads
// flags.Deterministic and nothing else of package flags).
package readvar

import "example.com/repros/readvar/flags"

// Mode names the mode.
func Mode() string {
	if flags.Deterministic {
		return "deterministic"
	}
	return "random"
}
