// Command lang prints what package loops computes: the same output,
// whatever the map iteration order, natively and instrumented.
package main

import (
	"fmt"
	"net/url"

	"example.com/lang/loops"
)

func main() {
	fmt.Println("total", loops.Total(map[string]int{"LANG_A": 1, "LANG_B": 2, "LANG_C": 3, "LANG_D": 4}))
	fmt.Println(loops.Forms(map[loops.Key]loops.Entry{"LANG_A": {1}, "LANG_B": {2}, "LANG_C": {3}}))
	fmt.Println(loops.Jumps(map[int]string{1: "LANG_A", 2: "LANG_B", 3: "LANG_C", 4: "LANG_D"}))
	ch := make(chan string, 3)
	ch <- "LANG_A"
	ch <- "LANG_B"
	close(ch)
	fmt.Println(loops.Shared(map[string]int{"LANG_A": 1, "LANG_B": 2, "LANG_C": 3}, ch))
	fmt.Println("deletes", loops.Deletes(map[int]bool{1: true, 2: true, 3: true, 4: true}))
	fmt.Println(loops.Nested(url.Values{"b": {"2", "3"}, "a": {"1"}}))
	fmt.Println("local", loops.Local(), loops.Unordered())
	chans := make([]chan string, 3)
	for i := range chans {
		chans[i] = make(chan string, 2)
		chans[i] <- "LANG_A"
		chans[i] <- "LANG_B"
		close(chans[i])
	}
	fmt.Println("drain", loops.Drain(chans[0], chans[1], chans[2]))
	generic()
}
