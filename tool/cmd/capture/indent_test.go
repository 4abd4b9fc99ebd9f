package main

import (
	"strings"
	"testing"
)

// TestIndent: every line indented by two spaces, the last ended; a
// divergence of megabytes on one line is indented in linear time (building
// it a rune at a time took a study's replay past its time limit).
func TestIndent(t *testing.T) {
	for in, want := range map[string]string{
		"":         "",
		"a":        "  a\n",
		"a\nb\n":   "  a\n  b\n",
		"a\n\nb":   "  a\n  \n  b\n",
		"é\nx\n\n": "  é\n  x\n  \n",
	} {
		if got := indent(in); got != want {
			t.Errorf("indent(%q) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("x", 8<<20)
	if got := indent(long); len(got) != len(long)+3 {
		t.Fatalf("indent of one long line: %d bytes", len(got))
	}
}
