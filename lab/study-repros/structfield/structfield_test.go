package structfield

import "testing"

func TestWord(t *testing.T) {
	if got := Word("hello world", "world"); got != "world" {
		t.Fatalf("Word = %q", got)
	}
}
