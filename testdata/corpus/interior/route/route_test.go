package route_test

import (
	"testing"

	"example.com/interior/route"
)

// TestFieldReceiver adds a parameter through the address of the context's
// Params field, which crosses after the context did, and reads it through
// the context.
func TestFieldReceiver(t *testing.T) {
	c := route.NewContext("/users/{name}")
	c.Params.Add("name", "joe")
	if got := c.Param("name"); got != "joe" {
		t.Fatalf("Param = %q, want joe", got)
	}
}

// TestFieldResult fills the parameters through the address the observed
// code hands out.
func TestFieldResult(t *testing.T) {
	c := route.NewContext("/")
	c.ParamsOf().Add("id", "7")
	if got := c.Param("id"); got != "7" {
		t.Fatalf("Param = %q, want 7", got)
	}
}

type names struct{ seen []string }

func (n *names) Visit(node *route.Node) { n.seen = append(n.seen, (*node).Name()) }

// TestPatchedFieldThenWalk: the address of the predicate's second field
// crosses before the predicate does; Walk then takes that address itself.
func TestPatchedFieldThenWalk(t *testing.T) {
	p := &route.Pred{Kind: "all"}
	route.Patch(&p.Node, &route.Leaf{Label: "x"})
	var root route.Node = p
	v := &names{}
	route.Walk(&root, v)
	if len(v.seen) != 2 || v.seen[0] != "x" || v.seen[1] != "all(x)" {
		t.Fatalf("visited %v", v.seen)
	}
}
