// Command basic drives the calc package.
package main

import (
	"fmt"
	"os"

	"example.com/basic/calc"
)

func main() {
	fmt.Println(calc.Greeting)
	fmt.Println(calc.Add(2, 3))
	q, r := calc.DivMod(17, 5)
	fmt.Println(q, r)
	fmt.Println(calc.Sum(1.5, 2.5, 3))
	fmt.Println(calc.Shout("hi"))
	fmt.Println(calc.Roll() > 0)
	fmt.Println(calc.Args())
	c := calc.NewCounter("clicks")
	c.Inc(2)
	fmt.Println(c.Inc(3), c.Name())
	fmt.Println(calc.Check(-1), calc.Check(1))
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		calc.Must(-1)
	}()
	fmt.Println(calc.Export("CALC_MODE=fast"), os.Getenv("CALC_MODE"))
	offset := 10
	fmt.Println(calc.Apply(func(v int) int { return v + offset }, 5))
	if len(os.Args) > 1 && os.Args[1] == "crash" {
		calc.Must(-2)
	}
}
