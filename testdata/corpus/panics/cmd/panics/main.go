// Command panics drives the guard package.
package main

import (
	"fmt"
	"os"

	"example.com/panics/guard"
)

func try(f func()) {
	defer func() { fmt.Println("recovered:", recover()) }()
	f()
}

func main() {
	fmt.Println(guard.Safe("abc"))
	fmt.Println(guard.Safe(""))
	fmt.Println(guard.Passthrough("xy"))
	try(func() { guard.Passthrough("") })
	fmt.Println(guard.Check(5))
	try(func() { guard.Check(11) })
	if len(os.Args) > 1 {
		guard.Check(12)
	}
}
