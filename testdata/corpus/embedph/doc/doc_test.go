package doc

import (
	"testing"

	"example.com/embedph/tree"
)

func TestRender(t *testing.T) {
	got := tree.Render(Build("a b\nc"))
	if want := "para(para#1(text:a text:b) para#2(text:c))"; got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
}
