// Package tree is a node tree in the style of goldmark's ast: nodes of other
// packages embed BaseNode by value as their first field, and the package's
// functions link them through the promoted methods. The embedph repro
// observes it; the nodes are external.
package tree

// Node is a node of a tree.
type Node interface {
	Kind() string
	FirstChild() Node
	NextSibling() Node
	ChildCount() int
	Label() string
	AppendChild(self, child Node)
	SetNextSibling(Node)
}

// BaseNode holds a node's links; nodes embed it by value.
type BaseNode struct {
	first, last, next Node
	count             int
	label             string
}

func (b *BaseNode) FirstChild() Node      { return b.first }
func (b *BaseNode) NextSibling() Node     { return b.next }
func (b *BaseNode) ChildCount() int       { return b.count }
func (b *BaseNode) SetNextSibling(n Node) { b.next = n }
func (b *BaseNode) Label() string         { return b.label }

// SetLabel labels the node; external code calls it on its own node, the
// node's first sight, as a *BaseNode.
func (b *BaseNode) SetLabel(l string) { b.label = l }

// AppendChild links child as self's last child.
func (b *BaseNode) AppendChild(self, child Node) {
	if b.last != nil {
		b.last.SetNextSibling(child)
	} else {
		b.first = child
	}
	b.last = child
	b.count++
}

// Append links children under parent, in order, through parent's
// AppendChild: an interface call on an external node whose method is
// promoted from the observed BaseNode at its start.
func Append(parent Node, children ...Node) {
	for _, c := range children {
		parent.AppendChild(parent, c)
	}
}

// Render walks the tree through the promoted methods.
func Render(n Node) string {
	s := n.Kind()
	if l := n.Label(); l != "" {
		s += "#" + l
	}
	if n.ChildCount() > 0 {
		s += "("
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			s += Render(c)
			if c.NextSibling() != nil {
				s += " "
			}
		}
		s += ")"
	}
	return s
}
