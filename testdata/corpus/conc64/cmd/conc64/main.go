// Command conc64 makes incalls from 64 goroutines at once; each Checkout
// starts goroutines of its own.
package main

import (
	"errors"
	"fmt"
	"sync"

	"example.com/conc64/orders"
)

const customers = 64

var items = []string{"tea", "rice", "soap", "salt"}

func main() {
	b := orders.New()
	totals := make([]int, customers)
	var wg sync.WaitGroup
	for i := range customers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := fmt.Sprintf("c%02d", i)
			if err := b.Open(c); err != nil {
				panic(err)
			}
			for q := range 6 { // q == 0: an error
				b.Add(c, items[(i+q)%len(items)], q)
			}
			r, err := b.Checkout(c)
			if err != nil {
				panic(err)
			}
			totals[i] = r.Cents
		}()
	}
	wg.Wait()
	sum := 0
	for _, t := range totals {
		sum += t
	}
	_, err := b.Add("nobody", "tea", 1)
	fmt.Println(sum > 0, errors.Is(err, orders.ErrUnknown))
}
