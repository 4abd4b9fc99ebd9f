// Package route holds objects whose fields other than the first cross the
// boundary by their address: a routing context whose parameters external
// code fills through &ctx.Params (chi's rctx.URLParams.Add), and a tree
// whose node field external code patches through &pred.Node before the
// predicate itself crosses (expr's ast.Patch).
package route

// Params are a route's parameters.
type Params struct {
	Keys, Values []string
}

// Add appends a parameter.
func (p *Params) Add(key, value string) {
	p.Keys = append(p.Keys, key)
	p.Values = append(p.Values, value)
}

// Context is a request's routing state; its parameters are not its first
// field.
type Context struct {
	Path   string
	Params Params
}

// NewContext returns an empty routing context.
func NewContext(path string) *Context { return &Context{Path: path} }

// ParamsOf returns the address of the context's parameters.
func (c *Context) ParamsOf() *Params { return &c.Params }

// Param returns the value of the parameter key, or "".
func (c *Context) Param(key string) string {
	for i, k := range c.Params.Keys {
		if k == key {
			return c.Params.Values[i]
		}
	}
	return ""
}

// Node is a node of a tree.
type Node interface{ Name() string }

// Leaf is a node without children.
type Leaf struct{ Label string }

// Name returns the label.
func (l *Leaf) Name() string { return l.Label }

// Pred holds a node in a field that is not its first.
type Pred struct {
	Kind string
	Node Node
}

// Name names the node it holds.
func (p *Pred) Name() string { return p.Kind + "(" + p.Node.Name() + ")" }

// Patch replaces the node at node.
func Patch(node *Node, n Node) { *node = n }

// Visitor visits the nodes of a tree, children first.
type Visitor interface{ Visit(node *Node) }

// Walk visits node's children, then node.
func Walk(node *Node, v Visitor) {
	if p, ok := (*node).(*Pred); ok {
		Walk(&p.Node, v)
	}
	v.Visit(node)
}
