// Command maporder118 drives the tally package.
package main

import (
	"fmt"

	"example.com/maporder118/tally"
)

func main() {
	weights := map[string]int{"A1": 1, "B2": 2, "C3": 3, "D4": 4, "E5": 5, "F6": 6, "G7": 7}
	keys := map[string]bool{"A1": true, "B2": true, "NONE": true, "D4": true}
	for i := 0; i < 4; i++ {
		fmt.Println(tally.Total(weights), tally.Set(keys))
	}
	ch := make(chan string, 3)
	ch <- "A1"
	ch <- "C3"
	close(ch)
	fmt.Println(tally.Lengths(ch))
}
