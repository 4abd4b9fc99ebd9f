// Package shop sells things.
package shop

import "example.com/app/pricing"

// Total returns the price of n coffees.
func Total(n int) int { return pricing.Price(n, 250) }
