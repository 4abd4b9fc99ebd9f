// Command generics drives the gen package with several instantiations.
package main

import (
	"fmt"
	"strings"

	"example.com/generics/ext"
	"example.com/generics/gen"
)

func main() {
	fmt.Println(gen.Map([]int{1, 2, 3}, func(x int) string { return strings.Repeat("*", x) }))
	fmt.Println(gen.Map([]string{"a", "bb"}, func(s string) int { return len(s) }))
	fmt.Println(gen.Sum([]int{1, 2, 3}), gen.Sum([]float64{0.5, 0.25}))
	fmt.Println(gen.SortedKeys(map[string]int{"b": 1, "a": 2, "c": 3}))
	fmt.Println(gen.Stamp(42), gen.Stamp(ext.Point{X: 1, Y: 2}))
	fmt.Println(gen.Evens([]int{1, 2, 3, 4, 5, 6}))
	fmt.Println(gen.Unbox(&ext.Box[string]{V: "gift"}))
	box := &ext.Box[int]{V: 1}
	gen.Refill(box, 7)
	gen.Refill(box, 8)
	fmt.Println(box.Get(), box.Refills)
	fmt.Println(gen.Peek(box))
	squares := map[int]int{}
	for i := range 32 {
		squares[i] = i * i
	}
	sum := 0
	gen.Each(squares, func(k, v int) { sum += v - k })
	fmt.Println(sum)

	s := gen.NewStack[int]()
	s.Push(1)
	s.Push(2)
	v, ok := s.Pop()
	fmt.Println(v, ok, s.Len())
	names := gen.NewStack[string]()
	names.Push("x")
	fmt.Println(names.Len())

	points := make(chan ext.Point, 1)
	points <- ext.Point{X: 3, Y: 4}
	fmt.Println(gen.Next(points, nil))
	stop := make(chan struct{})
	close(stop)
	fmt.Println(gen.Next(make(chan string), stop))
}
