package render_test

import (
	"testing"

	"example.com/optionsmap/opts"
	"example.com/optionsmap/render"
)

func TestRender(t *testing.T) {
	r := render.New(opts.With("xhtml"), opts.Step("wrap"))
	r.AddOptions(opts.With("hard"), opts.Step("trim"))
	if got, want := r.Render("doc"), "doc hard xhtml wrap trim"; got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
}

func TestNoOptions(t *testing.T) {
	if got := render.New().Render("doc"); got != "doc" {
		t.Errorf("Render = %q, want %q", got, "doc")
	}
}
