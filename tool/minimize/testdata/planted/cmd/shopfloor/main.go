// Command shopfloor drives the stock package the way a day of orders does:
// restocks, then a stream of small reservations, cancellations and stock
// checks over ten skus. Two requests among them touch the rare sku "X": a
// bulk reservation and its cancellation; the 300th request reserves what
// they should have left free.
package main

import (
	"fmt"
	"os"

	"example.com/planted/stock"
)

func main() {
	skus := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	for _, s := range skus {
		stock.Restock(s, 1000)
	}
	stock.Restock("X", 10)
	calls := len(skus) + 1
	failed := 0
	for i := 0; calls < 400; i++ {
		calls++
		sku := skus[i*7%len(skus)]
		id := fmt.Sprintf("r%d", i)
		switch {
		case calls == 60:
			err := stock.Reserve("bulk-x", "X", 6)
			report(&failed, err)
		case calls == 180:
			stock.Cancel("bulk-x")
		case calls == 300:
			report(&failed, stock.Reserve("late-x", "X", 8))
		case i%5 == 3:
			stock.Cancel(fmt.Sprintf("r%d", i-2))
		case i%5 == 4:
			stock.Free(sku)
		default:
			report(&failed, stock.Reserve(id, sku, 1+i%4))
		}
	}
	fmt.Printf("%d calls, %d failed\n", calls, failed)
	if failed > 0 {
		os.Exit(1)
	}
}

func report(failed *int, err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		*failed++
	}
}
