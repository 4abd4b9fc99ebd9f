package sv_test

import (
	"testing"

	"example.com/stringview/sv"
)

const doc = `{"a": 1, "b": [2, 3]}`

func TestTrimmed(t *testing.T) {
	a, b := sv.Trimmed("i d"), sv.Trimmed("i d")
	if a != "id" || b != "id" {
		t.Fatalf("Trimmed = %q, %q", a, b)
	}
}

func TestUgly(t *testing.T) {
	for range 2 {
		if got, want := sv.Ugly(doc), `{"a":1,"b":[2,3]}`; got != want {
			t.Fatalf("Ugly = %q, want %q", got, want)
		}
	}
}

func TestLast(t *testing.T) {
	b := make([]byte, 0, 8)
	b = append(b, "abcdefgh"...)
	if sv.Last(b) != 'h' {
		t.Fatal("Last")
	}
	b[7] = 'x'
	if sv.Last(b) != 'x' {
		t.Fatal("Last after a write")
	}
}

func TestOffset(t *testing.T) {
	for i := range 3 {
		if got := sv.Offset(doc, i+2); got != i+2 {
			t.Fatalf("Offset = %d, want %d", got, i+2)
		}
	}
}
