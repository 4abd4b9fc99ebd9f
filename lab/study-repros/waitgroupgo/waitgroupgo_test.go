package waitgroupgo_test

import (
	"os"
	"testing"

	"example.com/repros/waitgroupgo"
)

func TestLengths(t *testing.T) {
	os.Setenv("REPRO_A", "abc")
	os.Setenv("REPRO_B", "de")
	if got := waitgroupgo.Lengths([]string{"REPRO_A", "REPRO_B", "REPRO_NONE", "REPRO_A", "REPRO_B", "REPRO_A"}); got != 13 {
		t.Fatalf("Lengths = %d, want 13", got)
	}
}
