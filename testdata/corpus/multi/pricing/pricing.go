// Package pricing is one of two observed packages of the multi corpus
// program: calls into it from the other observed package are not events.
package pricing

import (
	"os"
	"strconv"
)

// Discount is the discount in percent, from the environment at start-up.
var Discount = envInt("DISCOUNT", 10)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// Price returns the price of qty items at unit cents, discounted.
func Price(unit, qty int) int {
	total := unit * qty
	return total - total*Discount/100
}
