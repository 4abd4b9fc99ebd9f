package ast_test

import (
	"slices"
	"testing"

	"example.com/deeptree/ast"
)

// sum builds `1 + 2 + ... + n`, nested to the left.
func sum(n int) ast.Node {
	var t ast.Node = &ast.Num{V: 1}
	for i := 2; i <= n; i++ {
		t = &ast.Add{Left: t, Right: &ast.Num{V: i}}
	}
	return t
}

func TestEval(t *testing.T) {
	if got := ast.Eval(sum(60)); got != 60*61/2 {
		t.Fatalf("Eval = %d", got)
	}
}

// numbers records the numbers it is told of, in order.
type numbers struct{ got []int }

func (r *numbers) Visit(n *ast.Node) {
	if x, ok := (*n).(*ast.Num); ok {
		r.got = append(r.got, x.V)
	}
}

func TestWalk(t *testing.T) {
	tree := sum(60)
	r := &numbers{}
	ast.Walk(&tree, r)
	want := make([]int, 60)
	for i := range want {
		want[i] = i + 1
	}
	if !slices.Equal(r.got, want) {
		t.Fatalf("visited %v", r.got)
	}
}
