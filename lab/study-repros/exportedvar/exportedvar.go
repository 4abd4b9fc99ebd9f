// Package exportedvar: an exported package variable, set by the test,
// decides what an exported function does (semver's CoerceNewVersion).
package exportedvar

import "strings"

// Upper makes Fold upper-case its input; tests switch it.
var Upper = true

// Fold folds the case of s.
func Fold(s string) string {
	if Upper {
		return strings.ToUpper(s)
	}
	return strings.ToLower(s)
}
