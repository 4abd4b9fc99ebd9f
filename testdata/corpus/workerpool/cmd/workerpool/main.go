// Command workerpool runs the pool's worker pools.
package main

import (
	"fmt"

	"example.com/workerpool/fetch"
	"example.com/workerpool/pool"
)

func main() {
	c := &fetch.Client{}
	var paths []string
	for i := range 24 {
		paths = append(paths, fmt.Sprintf("/item/%d%s", i, "xxxxx"[:i%5]))
	}
	fmt.Println(pool.Run(c, paths, 4))
	fmt.Println(pool.Fanout(c, paths, 3))
}
