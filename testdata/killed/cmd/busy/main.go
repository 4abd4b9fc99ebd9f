// Command busy makes incalls from 4 goroutines, without a pause, until it
// is killed.
package main

import (
	"strconv"
	"sync"

	"example.com/busy/store"
	"example.com/busy/svc"
)

func main() {
	s := svc.New(&store.Store{}, 3)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				s.Handle("k"+strconv.Itoa((g+i)%5), g+i)
			}
		})
	}
	wg.Wait()
}
