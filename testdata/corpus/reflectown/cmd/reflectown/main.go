// Command reflectown drives the conf package.
package main

import (
	"fmt"

	"example.com/reflectown/conf"
)

func main() {
	c, err := conf.Load()
	fmt.Printf("%+v %v\n", c, err)
}
