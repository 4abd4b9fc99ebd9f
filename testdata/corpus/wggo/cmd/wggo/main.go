// Command wggo drives the pool package.
package main

import (
	"fmt"
	"os"
	"sync"

	"example.com/wggo/pool"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "crash" {
		pool.Crash("disk full")
		return
	}
	fmt.Println(pool.Sizes([]string{"HOME", "PATH", "NOPE_1", "USER_NAME", "NOPE_2", "HOME", "PATH", "USER_NAME"}) > 0)
	fmt.Println(pool.Draws(6) <= 6)
	var wg sync.WaitGroup
	out := make(chan int, 1)
	pool.Start(&wg, "USER_NAME", out)
	wg.Wait()
	fmt.Println(<-out)
	pool.Crash("")
}
