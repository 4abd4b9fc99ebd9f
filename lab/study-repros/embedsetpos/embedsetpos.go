// Package embedsetpos makes nodes that embed an external base by value and
// sets their position through its promoted method (goldmark's
// extension/ast.NewTableHeader: `n := &TableHeader{}; n.SetPos(row.Pos())`,
// a call of (*ast.BaseNode).SetPos on `&n.BaseBlock.BaseNode`). The call is
// an outcall that writes the observed object's embedded field; the node then
// crosses the boundary with its contents.
package embedsetpos

import "example.com/repros/embedsetpos/tree"

// Header is a node with an alignment.
type Header struct {
	tree.Base
	Align int
}

// NewHeader makes a header at the position of row, holding row.
func NewHeader(row tree.Node) *Header {
	n := &Header{}
	n.SetPos(row.Pos())
	n.Append(row)
	return n
}

// Shift moves h by d.
func Shift(h *Header, d int) {
	h.SetPos(h.Pos() + d)
}
