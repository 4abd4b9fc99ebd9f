// Package entry is the external generic type genericwrite's code writes
// (golang-lru's internal.Entry).
package entry

// Entry is a key and a value.
type Entry[K comparable, V any] struct {
	Key   K
	Value V
	Hits  int
}
