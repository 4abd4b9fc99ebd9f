// Command workers drives the quota package from four goroutines, a
// hundred calls each, every worker taking and releasing units of quotas of
// its own. Worker 1's 30th call lowers the limit of the shared quota
// "batch" to 8; worker 3's 80th call, which waits for it, takes 10 units
// of "batch" and is refused.
package main

import (
	"fmt"
	"sync"

	"example.com/planted/quota"
)

func main() {
	lowered := make(chan struct{})
	var wg sync.WaitGroup
	refused := make([]int, 4)
	for w := range 4 {
		wg.Go(func() {
			for i := range 100 {
				key := fmt.Sprintf("w%d-q%d", w, i%5)
				switch {
				case w == 1 && i == 30:
					quota.SetLimit("batch", 8)
					close(lowered)
				case w == 3 && i == 80:
					<-lowered
					if quota.Take("batch", 10) != nil {
						refused[w]++
					}
				case i%2 == 0:
					if quota.Take(key, 1+i%7) != nil {
						refused[w]++
					}
				default:
					quota.Release(fmt.Sprintf("w%d-q%d", w, (i-1)%5), 1+(i-1)%7)
				}
			}
		})
	}
	wg.Wait()
	fmt.Println("refused:", refused)
}
