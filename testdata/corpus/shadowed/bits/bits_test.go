package bits_test

import (
	"sort"
	"strings"
	"testing"

	"example.com/shadowed/bits"
)

func TestSet(t *testing.T) {
	s := bits.New("primes")
	for _, p := range []uint{2, 3, 5, 7, 71} {
		s.Add(p)
	}
	if !s.Has(71) || s.Has(4) {
		t.Fatalf("membership: %v", s)
	}
	if got := s.String(); got != "[primes] 2 3 5 7 71" {
		t.Fatalf("String() = %q", got)
	}
	c := s.Clone()
	c.Add(9)
	if s.Has(9) || !c.Has(9) {
		t.Fatal("clone shares its words")
	}
	if bits.New("e").Empty() != true || s.Empty() {
		t.Fatal("Empty")
	}
	if got := bits.Span(3, 10); got != 7 {
		t.Fatalf("Span(3, 10) = %d", got)
	}
}

func TestReadFrom(t *testing.T) {
	s := bits.New("digits")
	n, err := s.ReadFrom(strings.NewReader("31415926"))
	if err != nil || n != 8 {
		t.Fatalf("ReadFrom = %d, %v", n, err)
	}
	if got := s.String(); got != "[digits] 1 2 3 4 5 6 9" {
		t.Fatalf("String() = %q", got)
	}
	if _, err := s.ReadFrom(strings.NewReader("12x")); err == nil || !strings.Contains(err.Error(), "not a digit") {
		t.Fatalf("ReadFrom(12x) = %v", err)
	}
}

func TestCounts(t *testing.T) {
	s := bits.New("counts")
	var notes []string
	s.Counts(map[string]uint{"a": 1, "b": 70, "c": 3, "d": 130}, func(name string, n uint) {
		notes = append(notes, name)
	})
	sort.Strings(notes)
	if got := strings.Join(notes, ""); got != "abcd" {
		t.Fatalf("notes %q", got)
	}
}
