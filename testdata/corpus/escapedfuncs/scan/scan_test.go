package scan_test

import (
	"testing"

	"example.com/escapedfuncs/bridge"
	"example.com/escapedfuncs/scan"
	"example.com/escapedfuncs/user"
)

func TestStoredInInit(t *testing.T) {
	p := scan.NewParser()
	if got := user.Walk(p, []byte("abcdefg")); got != 4 {
		t.Fatalf("Walk = %d, want 4", got)
	}
	if got := p.Steps(); got != 4 {
		t.Fatalf("Steps = %d, want 4", got)
	}
}

func TestStoredInField(t *testing.T) {
	var h bridge.Hooks
	scan.Install(&h, 'a')
	if got := user.CountWith(&h, []byte("bananas")); got != 3 {
		t.Fatalf("CountWith = %d, want 3", got)
	}
}

func TestFunctionPassedIn(t *testing.T) {
	got := scan.Apply([]float64{1, 2, 3}, scan.Double)
	if len(got) != 3 || got[2] != 6 {
		t.Fatalf("Apply = %v", got)
	}
}
