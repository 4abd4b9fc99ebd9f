//go:build generics

package loops

import "os"

// Lens ranges over a map whose key type is a type parameter (sorted at run
// time when it is a string or an integer).
func Lens[K ~string, V any](m map[K]V) int {
	n := 0
	for k := range m {
		n += len(os.Getenv(string(k)))
	}
	return n
}

// Weights ranges over a map of a named generic map type.
type Weights[K comparable] map[K]int

func (w Weights[K]) Sum() int {
	n := 0
	for _, v := range w {
		n += v + len(os.Getenv("LANG_NONE"))
	}
	return n
}

// DrainOf ranges over a channel of a type parameter.
func DrainOf[T any](ch chan T) int {
	n := 0
	for range ch {
		n += 1 + len(os.Getenv("LANG_NONE"))
	}
	return n
}
