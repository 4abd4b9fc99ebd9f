// Package tax adds tax.
//
//capture:observe example.com/app/pricing
package tax

// Add returns cents with 20% tax.
func Add(cents int) int { return cents * 6 / 5 }
