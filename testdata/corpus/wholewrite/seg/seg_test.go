package seg_test

import (
	"slices"
	"testing"

	"example.com/wholewrite/seg"
)

// node is goldmark's ast.BaseBlock: external memory holding an observed
// value, replaced whole by SetLines.
type node struct {
	lines seg.Segments
}

func (n *node) SetLines(v *seg.Segments) { n.lines = *v }

func TestLinesReplaced(t *testing.T) {
	n := &node{}
	if got := seg.Sum(&n.lines); got != 0 {
		t.Fatal(got)
	}
	v := seg.NewSegments(1, 2, 3)
	n.SetLines(&v)
	if got := seg.Sum(&n.lines); got != 6 {
		t.Fatal(got)
	}
	if got := n.lines.Len(); got != 3 {
		t.Fatal(got)
	}
	n.lines = seg.NewSegments(10)
	if got := seg.Sum(&n.lines); got != 10 {
		t.Fatal(got)
	}
}

// go-toml's `for _, e := range se.Errors { keys = append(keys, e.Key()) }`
// in a file older than go1.22: one variable for the whole loop, whose
// address each iteration hands to observed code.
func TestLoopVariable(t *testing.T) {
	errs := []seg.Err{seg.NewErr("a", 1), seg.NewErr("b", 2), seg.NewErr("c", 3)}
	var keys []string
	lines := 0
	var e seg.Err
	for i := range errs {
		e = errs[i]
		keys = append(keys, e.Key())
		lines += e.Line()
	}
	if !slices.Equal(keys, []string{"a", "b", "c"}) || lines != 6 {
		t.Fatal(keys, lines)
	}
}
