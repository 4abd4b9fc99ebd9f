package closureopts_test

import (
	"slices"
	"testing"

	opts "example.com/repros/closureopts"
)

func TestPrefixes(t *testing.T) {
	dash, under := opts.WithPrefix("release-"), opts.WithPrefix("release_")
	if got, err := opts.Parse("release_1.2", under); err != nil || got != "1.2" {
		t.Fatalf("Parse = %q, %v", got, err)
	}
	if _, err := opts.Parse("release_1.2", dash); err == nil {
		t.Fatal("Parse with the other prefix did not fail")
	}
	if got, err := opts.Parse("release-rc", dash, opts.Upper(), under, opts.Upper()); err != nil && got != "" {
		t.Fatalf("Parse = %q, %v", got, err)
	}
	if got, err := opts.Parse("release_rc", dash, opts.Upper(), under); err != nil || got != "RC" {
		t.Fatalf("Parse = %q, %v", got, err)
	}
}

func TestIterator(t *testing.T) {
	var got []string
	for s := range (opts.Words{"a", "b", "c"}).Upper() {
		got = append(got, s)
		if s == "B" {
			break
		}
	}
	if !slices.Equal(got, []string{"A", "B"}) {
		t.Fatalf("Upper = %q", got)
	}
}
