// Package doc builds a document of nodes that embed tree.BaseNode by
// value as their first field, with tree observed (goldmark's ast observed
// while parser's *Delimiter and extension/ast's nodes, which embed
// ast.BaseNode at their start, cross it as ast.Node). An external node
// crosses as a tree.Node, a type replay cannot name, so replay stands in a
// placeholder for it; tree's own methods then run on the same address as a
// *tree.BaseNode (the promoted AppendChild): one object seen as two types.
// A paragraph's first sight is its label's (*tree.BaseNode).SetLabel, the
// other order.
package doc

import (
	"fmt"
	"strings"

	"example.com/embedph/tree"
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

func (*Para) Kind() string   { return "para" }
func (t *Text) Kind() string { return "text:" + t.Value }

// Build makes a document of one paragraph per line, each word a Text.
func Build(src string) *Para {
	root := &Para{Style: "doc"}
	for i, line := range strings.Split(src, "\n") {
		p := &Para{Style: "p"}
		p.SetLabel(fmt.Sprint(i + 1))
		var words []tree.Node
		for _, w := range strings.Fields(line) {
			words = append(words, &Text{Value: w})
		}
		tree.Append(p, words...)
		tree.Append(root, p)
	}
	return root
}
