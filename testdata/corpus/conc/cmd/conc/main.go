// Command conc makes incalls from 8 goroutines.
package main

import (
	"fmt"
	"sync"

	"example.com/conc/counter"
)

func main() {
	t := counter.New()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One key per goroutine: what Hit returns then depends only on
			// this goroutine's own calls. With a shared key it would depend
			// on the order in which goroutines take the tally's mutex after
			// their outcalls return, an interleaving inside the observed
			// set that the boundary events do not record (docs/divergence.md).
			key := counter.Label(i)
			for j := 0; j < 20; j++ {
				t.Hit(key, j)
			}
		}()
	}
	wg.Wait()
	fmt.Println(t.Hit("w0", 0), t.Hit("w1", 0), t.Hit("w2", 0))
}
