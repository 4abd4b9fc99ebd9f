// Package waitgroupgo reproduces a fault the study found (shop/loadgen's
// run.go): workers started with sync.WaitGroup.Go that make outcalls. Before
// the fix their events were on goroutines no GO event linked ("boundary event
// on a goroutine that replay did not start"), and the workers diverging at
// once could crash the replay harness (exit status 2, no report): sync
// re-panics what the function it runs raised, replay's abort included.
package waitgroupgo

import (
	"os"
	"sync"
)

// Lengths reads each variable on a worker of its own and returns the sum of
// the values' lengths.
func Lengths(names []string) int {
	var wg sync.WaitGroup
	lens := make([]int, len(names))
	for i, n := range names {
		wg.Go(func() {
			lens[i] = len(os.Getenv(n))
		})
	}
	wg.Wait()
	total := 0
	for _, l := range lens {
		total += l
	}
	return total
}
