package dump_test

import (
	"bytes"
	"testing"

	"example.com/ownedwriter/dump"
)

func TestMarshalBinary(t *testing.T) {
	var s dump.Set
	s.Add(3)
	s.Add(70)
	b, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 64}
	if !bytes.Equal(b, want) {
		t.Fatalf("MarshalBinary = %v, want %v", b, want)
	}
}

func TestWriteTo(t *testing.T) {
	var s dump.Set
	s.Add(1)
	var buf bytes.Buffer
	if n, err := s.WriteTo(&buf); err != nil || n != 16 {
		t.Fatalf("WriteTo = %d, %v", n, err)
	}
	if buf.Len() != 16 {
		t.Fatalf("wrote %d bytes", buf.Len())
	}
}

func TestSdump(t *testing.T) {
	got := dump.Sdump([]interface{}{1, []interface{}{2, "x"}}, 3)
	if want := "[1 [2 \"x\"]]\n3\n"; got != want {
		t.Fatalf("Sdump = %q, want %q", got, want)
	}
}

func TestFdump(t *testing.T) {
	var buf bytes.Buffer
	dump.Fdump(&buf, []interface{}{4, "y"})
	if want := "[4 \"y\"]\n"; buf.String() != want {
		t.Fatalf("Fdump = %q, want %q", buf.String(), want)
	}
}
