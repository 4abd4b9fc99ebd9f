// Package tax adds tax.
package tax

// Add returns cents with 20% tax.
func Add(cents int) int { return cents * 6 / 5 }
