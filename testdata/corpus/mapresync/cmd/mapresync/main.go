// Command mapresync drives the tally package.
package main

import (
	"fmt"

	"example.com/mapresync/tally"
)

func main() {
	weights := map[tally.Name]int{{"A1"}: 1, {"B2"}: 2, {"C3"}: 3, {"D4"}: 4, {"E5"}: 5, {"F6"}: 6, {"G7"}: 7}
	for range 8 {
		fmt.Println(tally.Total(weights))
	}
}
