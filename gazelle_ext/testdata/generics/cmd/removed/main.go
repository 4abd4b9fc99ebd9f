// Command removed is no longer captured: its annotation was removed.
package main

import (
	"fmt"

	"example.com/app/gen"
	"example.com/app/units"
)

func main() { fmt.Println(gen.Sum([]units.Celsius{20.5, 1.5})) }
