//go:build generics

package main

import (
	"fmt"

	"example.com/lang/loops"
)

func generic() {
	fmt.Println("lens", loops.Lens(map[string]bool{"LANG_A": true, "LANG_B": false}))
	fmt.Println("weights", loops.Weights[int]{1: 2, 3: 4}.Sum())
	ch := make(chan int, 2)
	ch <- 1
	ch <- 2
	close(ch)
	fmt.Println("drainof", loops.DrainOf(ch))
}
