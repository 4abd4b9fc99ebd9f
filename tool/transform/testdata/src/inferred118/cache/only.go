package cache

import maxlib "example.com/inferred118/lib"

// Longest: the file's only reference to lib is a call its helper takes
// over; the file keeps the import under the blank name.
func Longest(a, b string) string { return maxlib.Max(a, b) }
