// Command channels drives the pipe package with channels of its own.
package main

import (
	"fmt"
	"time"

	"example.com/channels/ext"
	"example.com/channels/pipe"
)

func main() {
	nums := make(chan int, 3)
	nums <- 1
	nums <- 2
	nums <- 3
	close(nums)
	fmt.Println(pipe.Total(nums))

	words := make(chan string, 1)
	words <- "hello"
	fmt.Println(pipe.First(words))
	close(words)
	fmt.Println(pipe.First(words))

	out := make(chan int)
	got := ext.Drain(out)
	pipe.Forward(out, []int{4, 5})
	fmt.Println(<-got)

	f := ext.NewFeed(7, 8)
	fmt.Println(pipe.Next(f), pipe.Next(f))

	ready := make(chan int, 1)
	ready <- 42
	fmt.Println(pipe.Wait(ready, time.Minute))
	fmt.Println(pipe.Wait(make(chan int), time.Millisecond))

	fmt.Println(pipe.Squares([]int{1, 2, 3}, make(chan struct{})))
	stopped := make(chan struct{})
	close(stopped)
	fmt.Println(pipe.Squares(nil, stopped))

	fmt.Println(pipe.Poll(make(chan int)))
	ready <- 9
	fmt.Println(pipe.Poll(ready))
}
