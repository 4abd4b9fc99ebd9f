package render_test

import (
	"testing"

	"example.com/promoted/ast"
	"example.com/promoted/render"
)

func TestLink(t *testing.T) {
	l := ast.NewLink("/x", "X")
	render.Mark(l, "data-a")
	if got, want := render.Link(l), `<a href="/x" title="X" data-a="yes" class="link">inline</a>`; got != want {
		t.Fatalf("Link = %s, want %s", got, want)
	}
}

func TestFigure(t *testing.T) {
	f := ast.NewFigure("/img")
	f.SetAttribute("alt", "")
	if got, want := render.Figure(f), `<figure data-kind="link" data-n="1">/img</figure>`; got != want {
		t.Fatalf("Figure = %s, want %s", got, want)
	}
}

func TestWrapped(t *testing.T) {
	l := ast.NewLink("/y", "")
	l.SetAttribute("a", "1")
	l.SetAttribute("b", "2")
	if n := render.Wrap(l).Count(); n != 2 {
		t.Fatalf("Count = %d", n)
	}
}
