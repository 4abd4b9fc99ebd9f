package slicerecv_test

import (
	"reflect"
	"testing"

	"example.com/repros/slicerecv"
)

func TestRanked(t *testing.T) {
	got := slicerecv.Ranked([]string{"low", "high", "mid"}, []int{1, 100, 50})
	if want := []string{"high", "mid", "low"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Ranked = %q, want %q", got, want)
	}
}
