// Command invoice prices a fixed list of order lines and prints each total: a
// small program whose pricing package is the observed set of its capture build.
//
//capture:observe example.com/e2e/calc
package main

import (
	"fmt"

	"example.com/e2e/calc"
)

func main() {
	lines := []calc.Line{
		{Item: "pen", Quantity: 3, UnitCents: 120},
		{Item: "notebook", Quantity: 10, UnitCents: 450},
		{Item: "stapler", Quantity: 1, UnitCents: 1599},
	}
	for _, l := range lines {
		fmt.Printf("%-8s %3d x %5d = %6d\n", l.Item, l.Quantity, l.UnitCents, calc.Total(l))
	}
}
