package firstfield

import "testing"

func TestFirstFieldFirst(t *testing.T) {
	s := Outer{}
	s.Inner.Public = 1
	s.Inner.SetPrivate(2) // a *Inner crosses first
	s.Public = 3
	s.SetPrivate(4) // then the *Outer at the same address
	if got := s.Sum(); got != 6 {
		t.Fatalf("Sum = %d, want 6", got)
	}
	if got := s.Total(); got != 4 {
		t.Fatalf("Total = %d, want 4", got)
	}
	// Exported fields set between incalls: WRITE_INs of the part's field
	// and of the whole's own.
	s.Inner.Public = 10
	s.Public = 20
	if got := s.Total(); got != 30 {
		t.Fatalf("Total after the writes = %d, want 30", got)
	}
	if got := s.Inner.Private(); got != 2 {
		t.Fatalf("Inner.Private = %d, want 2", got)
	}
}
