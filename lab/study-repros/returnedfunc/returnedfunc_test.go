package returnedfunc_test

import (
	"testing"

	"example.com/repros/returnedfunc"
	"example.com/repros/returnedfunc/runner"
)

func TestDoubler(t *testing.T) {
	h := returnedfunc.Doubler(runner.New())
	for n := range 5 {
		if got := runner.Call(h, n); got != 2*n {
			t.Fatalf("h(%d) = %d", n, got)
		}
	}
}
