// Command server prints a total.
//
//capture:observe example.com/app/pricing
package main

import (
	"fmt"

	"example.com/app/shop"
)

func main() { fmt.Println(shop.Total(2)) }
