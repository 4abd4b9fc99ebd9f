// Command generics calls the generic functions of gen with type arguments of
// the universe, of the standard library and of another package (units).
//
//capture:observe github.com/rules-capture/rules_capture/rules/tests/generics/gen
package main

import (
	"fmt"
	"time"

	"github.com/rules-capture/rules_capture/rules/tests/generics/gen"
	"github.com/rules-capture/rules_capture/rules/tests/generics/units"
)

func main() {
	fmt.Println(gen.Max(3, 7))
	fmt.Println(gen.Max("pear", "apple"))
	fmt.Println(gen.Sum([]time.Duration{time.Second, 2 * time.Minute}))
	fmt.Println(gen.Sum([]units.Celsius{20.5, 1.5}))
}
