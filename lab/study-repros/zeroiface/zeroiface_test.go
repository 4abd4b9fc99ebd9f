package zeroiface_test

import (
	"testing"

	"example.com/repros/zeroiface"
	"example.com/repros/zeroiface/ext"
)

func TestMatch(t *testing.T) {
	p := ext.Tilde()
	opener, closer := zeroiface.NewDelimiter(2, p), zeroiface.NewDelimiter(2, p)
	if got := zeroiface.Match(opener, closer); got != "~~" {
		t.Fatalf("Match = %q", got)
	}
	if got := zeroiface.Match(opener, zeroiface.NewDelimiter(1, p)); got != "" {
		t.Fatalf("Match of unequal lengths = %q", got)
	}
}
