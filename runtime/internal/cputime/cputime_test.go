package cputime

import (
	"runtime"
	"testing"
)

// TestProcessGrowsWithWork: spinning for a while shows up as CPU time.
func TestProcessGrowsWithWork(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" {
		t.Skip("no getrusage")
	}
	before := Process()
	x := 0
	for i := 0; i < 200_000_000 && Process()-before < 20e6; i++ {
		x += i
	}
	if got := Process() - before; got < 20e6 {
		t.Fatalf("Process grew by %v after spinning, want >= 20ms (x=%d)", got, x)
	}
}
