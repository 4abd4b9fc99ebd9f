// Command dispatch drives the queue package the way a shift of workers
// does: three hundred submissions, cancellations and starts. Two of them
// concern the night job "night-x": its submission (call 40) and its
// cancellation (call 200); the shift's last call starts it anyway, and the
// queue's planted bug makes that call panic inside the work it hands to
// the pool, when the pool calls it back. The panic ends the program, as a crash in the field.
package main

import (
	"fmt"

	"example.com/planted/queue"
)

func main() {
	calls := 0
	for i := 0; calls < 299; i++ {
		calls++
		name := fmt.Sprintf("job%d", i)
		switch {
		case calls == 40:
			queue.Submit("night-x", 3)
		case calls == 200:
			queue.Cancel("night-x")
		case i%4 == 3:
			queue.Start(fmt.Sprintf("job%d", i-3))
		case i%4 == 2:
			queue.Cancel(fmt.Sprintf("job%d", i-1))
		default:
			queue.Submit(name, 1+i%9)
		}
	}
	fmt.Println("the night worker starts night-x")
	fmt.Println(queue.Start("night-x"))
}
