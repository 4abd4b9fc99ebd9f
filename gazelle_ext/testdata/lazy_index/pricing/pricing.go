// Package pricing computes prices.
package pricing

// Price returns the price of n items at unit cents each.
func Price(n, unit int) int { return n * unit }
