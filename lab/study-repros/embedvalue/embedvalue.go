// Package embedvalue builds a document of nodes that embed tree.BaseNode by value
// and hands them to tree.Append as tree.Nodes (goldmark's parser and
// extension/ast, rejected up front before: "passing *Delimiter to
// ast.Node.InsertAfter as ast.Node, whose method AppendChild is promoted
// from the embedded external type *ast.BaseNode"). tree's code writes the
// links of the embedded BaseNode in the capture; replay does not run it,
// and answers its calls of the promoted methods from the log.
package embedvalue

import (
	"strings"

	"example.com/repros/embedvalue/tree"
)

// Para is a paragraph; Text a run of text inside one.
type Para struct {
	tree.BaseNode
	Style string
}

type Text struct {
	tree.BaseNode
	Value string
}

func (*Para) Kind() string { return "para" }
func (*Text) Kind() string { return "text" }

// Build makes a document of one paragraph per line, each word a Text.
func Build(src string) *Para {
	root := &Para{Style: "doc"}
	for _, line := range strings.Split(src, "\n") {
		p := &Para{Style: "p"}
		var words []tree.Node
		for _, w := range strings.Fields(line) {
			words = append(words, &Text{Value: w})
		}
		tree.Append(p, words...)
		tree.Append(root, p)
	}
	return root
}

// Render walks the document through the promoted methods.
func Render(n tree.Node) string {
	var b strings.Builder
	b.WriteString(n.Kind())
	if t, ok := n.(*Text); ok {
		b.WriteString(":" + t.Value)
	}
	if n.ChildCount() > 0 {
		b.WriteString("(")
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			b.WriteString(Render(c))
			if c.NextSibling() != nil {
				b.WriteString(" ")
			}
		}
		b.WriteString(")")
	}
	return b.String()
}
