package storedfunc_test

import (
	"testing"

	"example.com/repros/storedfunc"
	"example.com/repros/storedfunc/user"
)

func TestScanThroughBridge(t *testing.T) {
	p := storedfunc.NewParser()
	if got := user.Scan(p, []byte("abcde")); got != 3 {
		t.Fatalf("Scan = %d, want 3", got)
	}
	if got := p.Scanned(); got != 3 {
		t.Fatalf("Scanned = %d, want 3", got)
	}
}
