// Command typeident drives the classify package.
package main

import (
	"fmt"

	"example.com/typeident/classify"
	"example.com/typeident/shapes"
)

func main() {
	for _, k := range []string{"circle", "square", "poly", "blob"} {
		fmt.Println(classify.Describe(shapes.Make(k)))
		fmt.Println(classify.Make(k))
	}
	fmt.Println(classify.Describe(nil))
	t := classify.Track(2, "two")
	fmt.Println(t.Label, t.Area())
	fmt.Println(classify.Total([]shapes.Shape{t, shapes.Make("poly")}))
	fmt.Println(classify.Own())
	for _, a := range []string{"slow", "busy", "closed", "fine"} {
		fmt.Println(classify.Dial(a))
	}
}
