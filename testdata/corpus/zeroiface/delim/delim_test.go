package delim_test

import (
	"testing"

	"example.com/zeroiface/delim"
	"example.com/zeroiface/ext"
)

// The processors are zero-size: every one has the address of every other,
// so they cross with no identity, and replay's stand-ins are rebuilt from
// the out-parameter record of CanOpenCloser before OnMatch is called on
// them.
func TestMatch(t *testing.T) {
	tilde, star := ext.Tilde(), ext.Star()
	if got := delim.Match(delim.NewDelimiter(2, tilde), delim.NewDelimiter(2, tilde)); got != "~~" {
		t.Fatalf("Match = %q", got)
	}
	if got := delim.Match(delim.NewDelimiter(2, tilde), delim.NewDelimiter(1, tilde)); got != "" {
		t.Fatalf("Match of unequal lengths = %q", got)
	}
	if got := delim.Match(delim.NewDelimiter(3, tilde), delim.NewDelimiter(1, star)); got != "~" {
		t.Fatalf("Match of tilde and star = %q", got)
	}
}
