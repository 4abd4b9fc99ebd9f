package value

import (
	"reflect"
	"testing"
)

// deepNode is a node of a chain whose links are interface values holding
// pointers, as a syntax tree's children are (expr's ast.Node).
type deepNode struct {
	Val  int
	Next any
}

func deepChain(n int) *deepNode {
	RegisterType(reflect.TypeFor[*deepNode]()) // replay rebuilds its nodes as themselves
	var head *deepNode
	for i := n - 1; i >= 0; i-- {
		nd := &deepNode{Val: i}
		if head != nil {
			nd.Next = head
		}
		head = nd
	}
	return head
}

// chainValues returns the Val of each node from head on, and the nodes.
func chainValues(head *deepNode) (vals []int, nodes []*deepNode) {
	for nd := head; nd != nil; {
		vals = append(vals, nd.Val)
		nodes = append(nodes, nd)
		next, _ := nd.Next.(*deepNode)
		nd = next
	}
	return vals, nodes
}

// TestObjectsDeeperThanMaxDepthKeepContents: a structure of objects nested
// far deeper than MaxDepth, crossing for the first time, keeps every
// object's contents (each object's contents count depth from their own
// start), so replay rebuilds the whole structure; a later sight of a deep
// object, written by reference only, names that rebuilt object. Counted
// over every level, as logs of LastPerLevelDepthFormat and before do, the
// objects past MaxDepth are rebuilt empty.
func TestObjectsDeeperThanMaxDepthKeepContents(t *testing.T) {
	const n = 200
	head := deepChain(n)
	_, nodes := chainValues(head)
	enc := &Encoder{Objects: newTable(), Deep: true}
	Encode(enc, head)
	first := len(enc.Buf)
	Encode(enc, nodes[150]) // seen before: a reference only
	if vals, err := Split(enc.Buf); err != nil || len(vals) != 2 {
		t.Fatalf("Split: %d values, %v", len(vals), err)
	}
	d := &Decoder{Buf: enc.Buf, Resolver: newTable()}
	got := Decode[*deepNode](d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	if d.Off != first {
		t.Fatalf("first value read to byte %d, written to %d", d.Off, first)
	}
	vals, gotNodes := chainValues(got)
	if len(vals) != n {
		t.Fatalf("rebuilt %d nodes, want %d", len(vals), n)
	}
	for i, v := range vals {
		if v != i {
			t.Fatalf("node %d rebuilt with Val %d", i, v)
		}
	}
	if again := Decode[*deepNode](d); d.Err != nil || again != gotNodes[150] {
		t.Fatalf("later sight of node 150: %p (%v), want %p", again, d.Err, gotNodes[150])
	}

	SetPerLevelDepth(true)
	defer SetPerLevelDepth(false)
	enc = &Encoder{Objects: newTable(), Deep: true}
	Encode(enc, head)
	d = &Decoder{Buf: enc.Buf, Resolver: newTable()}
	got = Decode[*deepNode](d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	vals, _ = chainValues(got)
	if len(vals) >= n {
		t.Fatalf("counted over every level: rebuilt all %d nodes, want the deep ones truncated", len(vals))
	}
}

// TestObjectNestingBounded: objects nested more deeply than
// MaxObjectNesting are written truncated past that nesting, so a very long
// chain crossing at once neither exhausts the stack nor fails to decode,
// and the encoding stays linear in the objects written.
func TestObjectNestingBounded(t *testing.T) {
	n := MaxObjectNesting + 500
	head := deepChain(n)
	enc := &Encoder{Objects: newTable(), Deep: true}
	Encode(enc, head)
	if vals, err := Split(enc.Buf); err != nil || len(vals) != 1 {
		t.Fatalf("Split: %d values, %v", len(vals), err)
	}
	d := &Decoder{Buf: enc.Buf, Resolver: newTable()}
	got := Decode[*deepNode](d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	vals, _ := chainValues(got)
	if len(vals) < MaxObjectNesting || len(vals) >= n {
		t.Fatalf("rebuilt %d nodes, want the first %d or more and not all %d", len(vals), MaxObjectNesting, n)
	}
	for i := range MaxObjectNesting {
		if vals[i] != i {
			t.Fatalf("node %d rebuilt with Val %d", i, vals[i])
		}
	}
}
