// Package tree is a node tree in the style of goldmark's ast: nodes embed
// BaseNode by value, and the package's functions link them through the
// promoted methods. The corpus program embedbase leaves it unobserved.
package tree

// Node is a node of a tree.
type Node interface {
	Kind() string
	FirstChild() Node
	NextSibling() Node
	ChildCount() int
	AppendChild(self, child Node)
	setNext(Node)
}

// BaseNode holds a node's links; nodes embed it by value.
type BaseNode struct {
	first, last, next Node
	count             int
}

func (b *BaseNode) FirstChild() Node  { return b.first }
func (b *BaseNode) NextSibling() Node { return b.next }
func (b *BaseNode) ChildCount() int   { return b.count }
func (b *BaseNode) setNext(n Node)    { b.next = n }

// AppendChild links child as self's last child.
func (b *BaseNode) AppendChild(self, child Node) {
	if b.last != nil {
		b.last.setNext(child)
	} else {
		b.first = child
	}
	b.last = child
	b.count++
}

// Append links children under parent, in order, through parent's
// AppendChild: external code calling a promoted method on the caller's
// node.
func Append(parent Node, children ...Node) {
	for _, c := range children {
		parent.AppendChild(parent, c)
	}
}
