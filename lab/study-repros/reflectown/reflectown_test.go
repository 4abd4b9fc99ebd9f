package reflectown_test

import (
	"slices"
	"testing"

	"example.com/repros/reflectown"
)

func TestSet(t *testing.T) {
	if got := reflectown.Set("Port", 8080); got.Port != 8080 {
		t.Fatalf("Set = %+v", got)
	}
	if got := reflectown.Fields(); !slices.Equal(got, []string{"Port", "Name"}) {
		t.Fatalf("Fields = %v", got)
	}
}
