package interiorfield_test

import (
	"testing"

	"example.com/repros/interiorfield"
)

type names struct{ seen []string }

func (n *names) Visit(node *interiorfield.Node) { n.seen = append(n.seen, (*node).Name()) }

func TestPatchedFieldThenWalk(t *testing.T) {
	p := &interiorfield.Pred{Kind: "all"}
	// The address of p's second field crosses before p does.
	interiorfield.Patch(&p.Node, &interiorfield.Leaf{Label: "x"})
	var root interiorfield.Node = p
	v := &names{}
	interiorfield.Walk(&root, v)
	if len(v.seen) != 2 || v.seen[0] != "x" || v.seen[1] != "all(x)" {
		t.Fatalf("visited %v", v.seen)
	}
}
