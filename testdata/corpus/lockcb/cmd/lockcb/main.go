// Command lockcb calls the ledger from several goroutines at once.
package main

import (
	"fmt"
	"sync"

	"example.com/lockcb/ledger"
	"example.com/lockcb/store"
)

func main() {
	db := store.Open()
	defer db.Close()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 25 {
				if _, err := ledger.Add(db, fmt.Sprintf("acct-%d", (g+i)%3), g+1); err != nil {
					panic(err)
				}
			}
			if _, err := ledger.Add(db, "acct-0", -1); err == nil {
				panic("a negative amount was accepted")
			}
		})
	}
	wg.Wait()
	total := 0
	for k := range 3 {
		v, _ := ledger.Add(db, fmt.Sprintf("acct-%d", k), 0)
		total += v
	}
	fmt.Println(total)
}
