package width

import (
	"sync"
	"testing"
)

var runes = []rune{'a', 'α', '─', 'ᄀ', '¡', 'z'}

func sum(c *Condition) int {
	n := 0
	for _, r := range runes {
		n += c.RuneWidth(r)
	}
	return n
}

// The field is set while another goroutine's incall is in progress (Hold
// waits for its callback), so no incall starts alone: the write must be
// seen by the incall that receives the condition.
func TestSetWhileAnotherIncallRuns(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	done := make(chan int)
	go func() {
		done <- Hold(func() int {
			close(entered)
			<-release
			return 1
		})
	}()
	<-entered
	c := NewCondition()
	narrow := sum(c)
	c.EastAsian = true
	wide := sum(c)
	c.EastAsian = false
	again := sum(c)
	close(release)
	if got := <-done; got != 2 {
		t.Fatal(got)
	}
	if narrow != 7 || wide != 10 || again != 7 {
		t.Fatal(narrow, wide, again)
	}
}

// go-runewidth's TestRuneWidthConcurrent: each goroutine sets the field on
// its own condition while the others' incalls run.
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := NewCondition()
			c.EastAsian = i%2 == 0
			want := 7
			if c.EastAsian {
				want = 10
			}
			for range 200 {
				if got := sum(c); got != want {
					t.Errorf("%d: %d, want %d", i, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}
