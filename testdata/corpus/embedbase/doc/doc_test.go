package doc

import "testing"

func TestRender(t *testing.T) {
	got := Render(Build("a b\nc"))
	if want := "para(para(text:a text:b) para(text:c))"; got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
}
