// Command context drives the svc package with contexts of its own.
package main

import (
	"context"
	"fmt"
	"time"

	"example.com/context/svc"
)

func main() {
	bg := context.Background()
	ctx := context.WithValue(bg, svc.UserKey, "ann")
	fmt.Println(svc.Handle(ctx, "a1"))

	timed, cancelTimed := context.WithTimeout(ctx, time.Hour)
	fmt.Println(svc.Handle(timed, "a2"))
	cancelTimed()

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	fmt.Println(svc.Handle(cancelled, "a3"))

	msgs := make(chan string, 1)
	msgs <- "hello"
	fmt.Println(svc.Wait(bg, msgs))
	later, cancelLater := context.WithCancel(bg)
	go func() {
		time.Sleep(10 * time.Millisecond)
		cancelLater()
	}()
	fmt.Println(svc.Wait(later, make(chan string)))

	fmt.Println(svc.Bounded(bg, time.Second, "b1"))
	fmt.Println(svc.Bounded(bg, time.Millisecond, "b2"))
}
