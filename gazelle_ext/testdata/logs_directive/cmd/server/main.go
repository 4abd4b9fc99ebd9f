// Command server prints a price.
//
//capture:observe example.com/app/pricing
package main

import (
	"fmt"

	"example.com/app/pricing"
	"example.com/app/tax"
)

func main() { fmt.Println(tax.Add(pricing.Price(2, 150))) }
