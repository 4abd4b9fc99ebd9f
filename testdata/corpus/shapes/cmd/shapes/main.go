// Command shapes drives the geom package.
package main

import (
	"bytes"
	"fmt"
	"os"

	"example.com/shapes/ext"
	"example.com/shapes/geom"
)

func main() {
	shapes := []geom.Shape{geom.Square{S: 2}, ext.Circle{R: 1}, geom.Square{S: 1}}
	fmt.Println(geom.Total(shapes))
	var buf bytes.Buffer
	for _, s := range shapes {
		if err := geom.Describe(&buf, s); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Print(buf.String())
	_ = geom.Describe(os.Stdout, ext.Circle{R: 2})
	clock := &ext.Clock{Offset: 3}
	a, b := geom.NewRegistry(clock), geom.NewRegistry(clock)
	a.Add(shapes[0])
	b.Add(shapes[1])
	b.Add(shapes[2])
	fmt.Println(a.Merge(b), a.Largest().Name(), a.Span() >= 0, a.Skew())
}
