package opts

import (
	"slices"
	"testing"
)

// The flag returned by String is changed by the test before Parse, whose
// receiver is the set: only a check of every watched object sees it.
func TestNoOptDefVal(t *testing.T) {
	s := NewSet()
	f := s.String("color", "auto")
	f.NoOptDefVal = "always"
	if err := s.Parse([]string{"--color", "file"}); err != nil {
		t.Fatal(err)
	}
	if got := s.Get("color"); got != "always" {
		t.Fatalf("color = %q", got)
	}
}

// pflag's f.Lookup("x").NoOptDefVal = "1".
func TestLookupNoOptDefVal(t *testing.T) {
	s := NewSet()
	s.String("x", "0")
	s.String("y", "0")
	s.Lookup("x").NoOptDefVal = "1"
	if err := s.Parse([]string{"--x", "--y=2"}); err != nil {
		t.Fatal(err)
	}
	if s.Get("x") != "1" || s.Get("y") != "2" {
		t.Fatal(s.Get("x"), s.Get("y"))
	}
}

func TestSortFlags(t *testing.T) {
	s := NewSet()
	s.SortFlags = false
	for _, n := range []string{"C", "B", "A"} {
		s.String(n, "")
	}
	if got := s.Names(); !slices.Equal(got, []string{"C", "B", "A"}) {
		t.Fatal(got)
	}
}

// A function value from outside in an exported field: observed code's call
// of it is an outcall.
func TestUsage(t *testing.T) {
	called := 0
	s := NewSet()
	s.Usage = func() { called++ }
	if err := s.Parse([]string{"--help"}); err != ErrHelp {
		t.Fatal(err)
	}
	if called != 1 {
		t.Fatal(called)
	}
}

// A field of a struct-valued exported field (pflag's
// ParseErrorsAllowlist.UnknownFlags).
func TestUnknownAllowed(t *testing.T) {
	s := NewSet()
	s.String("x", "")
	s.Allow.UnknownFlags = true
	if err := s.Parse([]string{"--nope", "--x=1"}); err != nil {
		t.Fatal(err)
	}
	if s.Get("x") != "1" {
		t.Fatal(s.Get("x"))
	}
}

// Two writes of the same field between three calls.
func TestHidden(t *testing.T) {
	s := NewSet()
	s.String("a", "")
	f := s.String("secret", "")
	f.Hidden = true
	if got := s.Names(); !slices.Equal(got, []string{"a"}) {
		t.Fatal(got)
	}
	f.Hidden = false
	if got := s.Names(); !slices.Equal(got, []string{"a", "secret"}) {
		t.Fatal(got)
	}
}

// Observed code changes nothing external code set: no WRITE_IN, and a
// field written by observed code (value) is no WRITE_IN either.
func TestUntouched(t *testing.T) {
	s := NewSet()
	s.String("x", "0")
	if err := s.Parse([]string{"--x=5", "rest"}); err != nil {
		t.Fatal(err)
	}
	if s.Get("x") != "5" || !slices.Equal(s.Args(), []string{"rest"}) {
		t.Fatal(s.Get("x"), s.Args())
	}
}

type notes struct{ n int }

func (n *notes) Note(string) { n.n++ }

// An interface-typed field set to a test double, a type replay cannot
// name: it stands in with a placeholder generated for the field's type.
func TestSink(t *testing.T) {
	s := NewSet()
	n := &notes{}
	s.Out = n
	if err := s.Parse([]string{"--help"}); err != ErrHelp || n.n != 1 {
		t.Fatal(err, n.n)
	}
}
