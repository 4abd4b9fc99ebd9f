// Command report prints a tax amount.
package main

import (
	"fmt"

	"example.com/app/tax"
)

//capture:observe example.com/app/tax

func main() { fmt.Println(tax.Add(100)) }
