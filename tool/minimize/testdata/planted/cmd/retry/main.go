// Command retry drives the queue package as a supervised shift does: three
// hundred submissions, cancellations and starts, where a start that panics
// is recovered and logged, and the shift goes on. Two night jobs hit the
// queue's planted bug: "night-x" (submitted at call 40, cancelled at call
// 200, started at call 250) and "night-y" (submitted at call 100, cancelled
// at call 150, started by the shift's last call). Each start panics in the
// work the queue hands to the pool; the log records both panics.
package main

import (
	"fmt"

	"example.com/planted/queue"
)

// start starts job name, recovering a panic as the shift's supervisor
// does.
func start(name string) (level int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("start %s: %v", name, r)
		}
	}()
	return queue.Start(name), nil
}

func main() {
	failed := 0
	run := func(name string) {
		if _, err := start(name); err != nil {
			fmt.Println("recovered:", err)
			failed++
		}
	}
	for i, calls := 0, 0; calls < 299; i++ {
		calls++
		switch {
		case calls == 40:
			queue.Submit("night-x", 3)
		case calls == 100:
			queue.Submit("night-y", 5)
		case calls == 150:
			queue.Cancel("night-y")
		case calls == 200:
			queue.Cancel("night-x")
		case calls == 250:
			run("night-x")
		case i%4 == 3:
			run(fmt.Sprintf("job%d", i-3))
		case i%4 == 2:
			queue.Cancel(fmt.Sprintf("job%d", i-1))
		default:
			queue.Submit(fmt.Sprintf("job%d", i), 1+i%9)
		}
	}
	run("night-y")
	fmt.Printf("%d starts panicked\n", failed)
}
