// Command waitgroup drives the fan package.
package main

import (
	"fmt"
	"sync"

	"example.com/waitgroup/fan"
)

func main() {
	fmt.Println(fan.Sizes([]string{"HOME", "PATH", "NOPE", "USER_NAME"}) > 0)
	fmt.Println(fan.Spread(100, 4) >= 100)
	var wg sync.WaitGroup
	out := make([]int, 3)
	for i, n := range []string{"HOME", "USER_NAME", "NOPE"} {
		wg.Add(1)
		go fan.Work(&wg, n, &out[i])
	}
	wg.Wait()
	fmt.Println(out[1])
}
