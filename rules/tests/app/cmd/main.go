// Command app greets its arguments; rules_capture's rule tests build it plain,
// wrapped and with capture probes.
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/rules-capture/rules_capture/rules/tests/app/clock"
	"github.com/rules-capture/rules_capture/rules/tests/app/greet"
)

func main() {
	var c clock.Clock = clock.System{}
	if h := os.Getenv("APP_HOUR"); h != "" {
		n, err := strconv.Atoi(h)
		if err != nil {
			fmt.Fprintln(os.Stderr, "APP_HOUR must be a number:", err)
			os.Exit(2)
		}
		c = clock.Fixed(n)
	}
	for _, name := range os.Args[1:] {
		fmt.Println(greet.Greeting(c, name))
	}
}
