// Package ast is external code shaped like goldmark's ast: exported node
// types embed an unexported base type, through which the fields and
// methods of exported types it embeds are promoted.
package ast

// An Attribute is a name and a value.
type Attribute struct{ Name, Value string }

// BaseNode holds what every node has.
type BaseNode struct{ attrs []Attribute }

// Attributes returns the node's attributes.
func (n *BaseNode) Attributes() []Attribute { return n.attrs }

// SetAttribute adds an attribute.
func (n *BaseNode) SetAttribute(name, value string) {
	n.attrs = append(n.attrs, Attribute{name, value})
}

// BaseInline is embedded by inline nodes.
type BaseInline struct{ BaseNode }

// IsInline reports that the node is inline.
func (*BaseInline) IsInline() bool { return true }

type baseLink struct {
	BaseInline
	Destination []byte
	Title       []byte
}

// Kind is a method of the unexported base type itself.
func (n *baseLink) Kind() string { return "link" }

// A Link is a link; its fields and methods come from baseLink.
type Link struct{ baseLink }

// NewLink returns a link.
func NewLink(dest, title string) *Link {
	return &Link{baseLink{Destination: []byte(dest), Title: []byte(title)}}
}

type caption struct {
	// BaseInline here is a string: it hides the promoted BaseInline of
	// Figure's baseLink (both at depth 1), so only the methods reach it.
	BaseInline string
}

// A Figure is a link with a caption.
type Figure struct {
	baseLink
	caption
}

// NewFigure returns a figure.
func NewFigure(dest string) *Figure {
	return &Figure{baseLink: baseLink{Destination: []byte(dest)}}
}
