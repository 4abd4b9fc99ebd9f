// Command renamed adds temperatures with gen.Sum[units.Celsius].
//
//capture:observe example.com/app/gen
package main

import (
	"fmt"

	"example.com/app/gen"
	"example.com/app/units"
)

func main() { fmt.Println(gen.Sum([]units.Celsius{20.5, 1.5})) }
