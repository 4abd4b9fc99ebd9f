// Package ast is the syntax tree of sums, as a parser of long expressions
// builds it: `1 + 2 + ... + n` nests its nodes n deep, deeper than the
// value encoding's depth limit, and the tree crosses into the package for
// the first time whole.
package ast

// Node is a node of the tree.
type Node interface{ node() }

// Num is a number.
type Num struct{ V int }

// Add is the sum of two nodes.
type Add struct{ Left, Right Node }

func (*Num) node() {}
func (*Add) node() {}

// Visitor is told of every node Walk reaches.
type Visitor interface{ Visit(n *Node) }

// Walk tells v of every node under *n, children first, left to right.
func Walk(n *Node, v Visitor) {
	if x, ok := (*n).(*Add); ok {
		Walk(&x.Left, v)
		Walk(&x.Right, v)
	}
	v.Visit(n)
}

// Eval is the value of the sum n.
func Eval(n Node) int {
	switch x := n.(type) {
	case *Num:
		return x.V
	case *Add:
		return Eval(x.Left) + Eval(x.Right)
	}
	return 0
}
