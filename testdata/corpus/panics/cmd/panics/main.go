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

// nest recurses through guard.Nest until it panics at depth limit.
func nest(limit int) {
	var visit func(depth int)
	visit = func(depth int) { guard.Nest(depth, limit, visit) }
	visit(0)
}

func main() {
	fmt.Println(guard.Safe("abc"))
	fmt.Println(guard.Safe(""))
	fmt.Println(guard.Passthrough("xy"))
	try(func() { guard.Passthrough("") })
	fmt.Println(guard.Check(5))
	try(func() { guard.Check(11) })
	try(func() { nest(3000) })
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "crash":
			guard.Check(12)
		case "deepcrash":
			nest(3000)
		}
	}
}
