// Package tree is a node base in the style of goldmark's ast.BaseNode: types
// of other packages embed it by value and get its methods. The corpus program
// leaves it unobserved.
package tree

// Node is a node of a tree.
type Node interface {
	Pos() int
	SetPos(p int)
}

// Base is embedded by nodes.
type Base struct {
	pos  int
	kids []Node
}

// Pos is the node's position.
func (b *Base) Pos() int { return b.pos }

// SetPos sets the node's position.
func (b *Base) SetPos(p int) { b.pos = p }

// Append adds child below parent.
func (b *Base) Append(child Node) { b.kids = append(b.kids, child) }

// Len is the number of children.
func (b *Base) Len() int { return len(b.kids) }
