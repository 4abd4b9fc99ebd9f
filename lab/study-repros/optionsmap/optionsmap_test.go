package optionsmap_test

import (
	"testing"

	"example.com/repros/optionsmap"
	"example.com/repros/optionsmap/xopt"
)

func TestRender(t *testing.T) {
	r := optionsmap.New(xopt.With("xhtml"), xopt.Step("wrap"))
	r.AddOptions(xopt.With("hard"), xopt.Step("trim"))
	if got, want := r.Render("doc"), "doc hard xhtml wrap trim"; got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
}
