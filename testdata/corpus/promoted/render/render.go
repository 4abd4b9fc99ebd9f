// Package render is shaped like goldmark's renderer/html: it reads fields
// and calls methods of ast nodes that are promoted through ast's
// unexported embedded base type.
package render

import (
	"strings"

	"example.com/promoted/ast"
)

// Link renders a link with its attributes.
func Link(n *ast.Link) string {
	var b strings.Builder
	b.WriteString(`<a href="` + string(n.Destination) + `"`)
	if n.Title != nil {
		b.WriteString(` title="` + string(n.Title) + `"`)
	}
	if n.Attributes() != nil {
		for _, a := range n.Attributes() {
			b.WriteString(" " + a.Name + `="` + a.Value + `"`)
		}
	}
	b.WriteString(" class=\"" + n.Kind() + "\">")
	if n.IsInline() {
		b.WriteString("inline")
	}
	b.WriteString("</a>")
	return b.String()
}

// Mark sets an attribute on the link (a pointer method promoted through
// the unexported base type: an outcall that changes external memory).
func Mark(n *ast.Link, name string) {
	n.SetAttribute(name, "yes")
}

// Figure renders a figure: its BaseInline field is hidden, its methods are
// not.
func Figure(f *ast.Figure) string {
	return `<figure data-kind="` + f.Kind() + `" data-n="` + itoa(len(f.Attributes())) + `">` + string(f.Destination) + `</figure>`
}

// A Wrapped link embeds the exported external type by pointer.
type Wrapped struct{ *ast.Link }

// Wrap wraps a link.
func Wrap(l *ast.Link) *Wrapped { return &Wrapped{l} }

// Count returns the number of the wrapped link's attributes.
func (w *Wrapped) Count() int { return len(w.Attributes()) }

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}
