// Package user is tested with assert (go-toml's root package).
package user

// Double returns twice n.
func Double(n int) int { return 2 * n }
