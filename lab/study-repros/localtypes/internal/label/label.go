// Package label is internal to localtypes: only go test lets the external
// test package localtypes_test import it.
package label

// Of labels what Encode wrote.
func Of(s string) string { return "[" + s + "]" }
