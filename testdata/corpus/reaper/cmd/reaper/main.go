// Command reaper makes caches whose reapers race their constructor's
// return (as golang-lru's expirable does), lets some tick, and closes them.
package main

import (
	"fmt"
	"time"

	"example.com/reaper/cache"
)

func main() {
	total := 0
	for i := range 6 {
		c := cache.New(50 * time.Millisecond) // a tick every 5 ms
		c.Add("a")
		c.Add("b")
		if i%2 == 1 {
			time.Sleep(12 * time.Millisecond) // a tick or two
		}
		total += c.Len()
		if i%3 == 2 {
			fmt.Println("swept", c.Swept() > 0)
		}
		c.Close()
	}
	fmt.Println("total", total)
}
