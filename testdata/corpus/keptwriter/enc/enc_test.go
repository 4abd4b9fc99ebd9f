package enc_test

import (
	"bytes"
	"testing"

	"example.com/keptwriter/enc"
)

func TestMarshal(t *testing.T) {
	got := enc.Marshal("a = 1", "long enough to fill the writer's buffer", "b = 2")
	if want := "a = 1\nlong enough to fill the writer's buffer\nb = 2\n"; string(got) != want {
		t.Fatalf("Marshal = %q, want %q", got, want)
	}
}

func TestUpper(t *testing.T) {
	if got, want := enc.Upper("x", "yz"), "X\nYZ\n!!"; got != want {
		t.Fatalf("Upper = %q, want %q", got, want)
	}
}

func TestEncodeToCaller(t *testing.T) {
	var buf bytes.Buffer
	if err := enc.NewEncoder(&buf).Encode("c"); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "c\n" {
		t.Fatalf("wrote %q", buf.String())
	}
}
