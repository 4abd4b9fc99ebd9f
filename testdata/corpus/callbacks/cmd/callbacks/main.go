// Command callbacks drives the cb package.
package main

import (
	"fmt"

	"example.com/callbacks/cb"
)

func main() {
	fmt.Println(cb.Count([]string{"a", "bbb", "cc", "stop", "dddd"}, 2))
	fmt.Println(cb.Twice(3, 5))
	fmt.Println(cb.Shout("hello world"))
	fmt.Println(cb.Greet([]string{"ann", "bob"}))
	fmt.Println(cb.Checked(4), cb.Checked(-1))
}
