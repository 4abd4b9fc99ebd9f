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
			key := counter.Label(i % 3)
			for j := 0; j < 20; j++ {
				t.Hit(key, j)
			}
		}()
	}
	wg.Wait()
	fmt.Println(t.Hit("w0", 0), t.Hit("w1", 0), t.Hit("w2", 0))
}
