// Command goroutines drives the work package.
package main

import (
	"fmt"
	"os"

	"example.com/goroutines/work"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "crash" {
		work.Crash("disk full")
		return
	}
	fmt.Println(work.Sum([]int{1, 2, 3, 4}) > 0)
	fmt.Println(work.Lookup([][]string{{"HOME", "NOPE_1"}, {"PATH"}, {"NOPE_2", "USER_NAME"}}))
	work.Crash("")
}
