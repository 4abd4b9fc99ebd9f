// Command freshids asks the stock for levels from several goroutines at
// once.
package main

import (
	"fmt"
	"sync"

	"example.com/freshids/kv"
	"example.com/freshids/stock"
)

func main() {
	db := kv.Open(5)
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				n, err := stock.Available(db, fmt.Sprintf("sku-%d", (g+i)%5))
				if err != nil {
					panic(err)
				}
				mu.Lock()
				total += n
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	fmt.Println(total)
}
