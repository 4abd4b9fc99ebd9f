// Package interiorfield reproduces a fault the study found in expr's ast
// package (5 of 577 logs at 1e29f66: "different arguments (expected
// CALL_OUT; at ast/visitor.go:78)", optimizer.TestOptimize_predicate_combination_nested,
// vm.TestVM_Limits, builtin.TestBuiltin, ...): external code (expr's
// optimizer) makes an observed struct (a PredicateNode) and hands observed
// code the address of one of its fields that is not the first
// (ast.Patch(&predicate.Node, n)) before the struct itself crosses. The
// capture names that address by an object ID of its own; in replay the
// field's address is a cell of its own, apart from the struct replay makes
// when the struct crosses, so when observed code later takes the address
// of that field of the struct (Walk's &n.Node) replay has an unknown
// pointer where the log holds the known one.
package interiorfield

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
