package dump_test

import (
	"slices"
	"testing"

	"example.com/reflectkeys/dump"
)

func TestLookup(t *testing.T) {
	t.Setenv("REFLECTKEYS_B", "b")
	m := map[string]bool{"REFLECTKEYS_A": true, "REFLECTKEYS_B": true, "REFLECTKEYS_C": true, "REFLECTKEYS_D": true,
		"REFLECTKEYS_E": true, "REFLECTKEYS_F": true, "REFLECTKEYS_G": true}
	if got := dump.Lookup(m); got != 1 {
		t.Fatalf("Lookup = %d", got)
	}
}

func TestDescending(t *testing.T) {
	m := map[int]string{3: "c", 1: "a", 7: "g", 5: "e", 2: "b", 6: "f", 4: "d"}
	if got := dump.Descending(m); !slices.Equal(got, []int64{7, 6, 5, 4, 3, 2, 1}) {
		t.Fatalf("Descending = %v", got)
	}
}
