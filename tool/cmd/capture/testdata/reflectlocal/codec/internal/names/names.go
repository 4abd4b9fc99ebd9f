// Package names is internal to codec: only go test lets the external test
// package codec_test import it.
package names

import "strings"

// Upper names a field as the tests print it.
func Upper(s string) string { return strings.ToUpper(s) }
