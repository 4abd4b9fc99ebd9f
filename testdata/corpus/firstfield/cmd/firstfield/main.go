// Command firstfield calls methods of embedded parts before methods of the
// structs that embed them, on the main goroutine and on goroutines of its
// own (one stream each in the log).
package main

import (
	"fmt"
	"os"
	"sync"

	"example.com/firstfield/parts"
)

func main() {
	var w parts.Whole
	w.Part.SetPrivate(2) // a *Part crosses first
	w.Public = 3
	made := parts.NewWhole(7) // an object observed code makes, numbered between
	w.SetPrivate(4)           // then the *Whole at the part's address
	total := w.Sum() + made.Sum()
	total += w.Total() // 3: set before the whole crossed
	w.Public = 30      // between incalls: a WRITE_IN of the whole's field
	total += w.Total()

	// The part on a goroutine of its own (another stream), the whole nest
	// first on the main goroutine, then on another goroutine.
	var n parts.Nest
	var wg sync.WaitGroup
	wg.Go(func() { n.Mid.Part.SetPrivate(5) })
	wg.Wait()
	total += n.Bump()
	wg.Go(func() { total += n.Mid.Part.Private() + n.Bump() })
	wg.Wait()

	fmt.Println(total)
	if total != 24+70+3+30+105+5+205 {
		os.Exit(1)
	}
}
