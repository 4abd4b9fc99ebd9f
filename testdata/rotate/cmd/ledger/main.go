// Command ledger makes a stream of deposits into the observed ledger
// package, one after another: every return is a quiescent point, so a
// rotated log of it can start a segment almost anywhere.
package main

import (
	"fmt"
	"os"
	"strconv"

	"example.com/rotate/ledger"
)

func main() {
	n := 4000
	if len(os.Args) > 1 {
		n, _ = strconv.Atoi(os.Args[1])
	}
	for i := range n {
		ledger.Deposit("acct"+strconv.Itoa(i%7), i%13)
		if i%100 == 99 {
			ledger.Report()
		}
	}
	fmt.Println(ledger.Report())
}
