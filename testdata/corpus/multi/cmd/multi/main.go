// Command multi drives the orders package.
package main

import (
	"fmt"

	"example.com/multi/orders"
	"example.com/multi/pricing"
)

func main() {
	for i, id := range []string{"a", "b", "c"} {
		o := orders.Place(id, 250, i+1)
		fmt.Println(orders.Receipt(o))
	}
	fmt.Println(pricing.Price(100, 3))
}
