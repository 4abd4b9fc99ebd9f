// Command tool prints a price; it used to be captured.
package main

import (
	"fmt"

	"example.com/app/pricing"
)

func main() { fmt.Println(pricing.Price(1, 100)) }
