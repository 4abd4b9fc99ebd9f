package ptrs_test

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"testing"
	"unsafe"

	"example.com/addrdata/ptrs"
)

type pair struct {
	A *int
	B *int
	S string
}

func TestDump(t *testing.T) {
	x := 7
	p := &pair{A: &x, B: &x, S: "s"}
	var buf bytes.Buffer
	ptrs.Dump(&buf, p)
	want := fmt.Sprintf("(%p){(%p)7 (%p)<seen> \"s\"}", p, &x, &x)
	if buf.String() != want {
		t.Fatalf("Dump = %s, want %s", buf.String(), want)
	}
}

func TestDumpRefs(t *testing.T) {
	m := map[string]int{"a": 1}
	ch := make(chan int)
	var buf bytes.Buffer
	ptrs.Dump(&buf, struct {
		M map[string]int
		C chan int
	}{m, ch})
	want := fmt.Sprintf("{map@%p chan@%p}", m, ch)
	if buf.String() != want {
		t.Fatalf("Dump = %s, want %s", buf.String(), want)
	}
}

func TestCycle(t *testing.T) {
	var pool ptrs.Pool
	a, b := pool.New("a"), pool.New("b")
	a.Next, b.Next = b, a
	var buf bytes.Buffer
	ptrs.Dump(&buf, a)
	want := fmt.Sprintf("(%p){\"a\" (%p){\"b\" (%p)<seen> 1} 0}", a, b, a)
	if buf.String() != want {
		t.Fatalf("Dump = %s, want %s", buf.String(), want)
	}
}

func TestByAddress(t *testing.T) {
	var pool ptrs.Pool
	var nodes []*ptrs.Node
	for _, name := range []string{"a", "b", "c", "d", "e", "f"} {
		nodes = append(nodes, pool.New(name))
	}
	sort.Slice(nodes, func(i, j int) bool { return uintptr(unsafe.Pointer(nodes[i])) < uintptr(unsafe.Pointer(nodes[j])) })
	var want []string
	for _, n := range nodes {
		want = append(want, n.Name)
	}
	if got := pool.ByAddress(); !slices.Equal(got, want) {
		t.Fatalf("ByAddress = %v, want %v", got, want)
	}
}

func TestWhere(t *testing.T) {
	var pool ptrs.Pool
	pool.New("a")
	n := pool.New("b")
	if got, want := ptrs.Where(n), fmt.Sprintf("%p+24", unsafe.Add(unsafe.Pointer(n), 24)); got != want {
		t.Fatalf("Where = %s, want %s", got, want)
	}
	if got := ptrs.Counter(n); got != 1 {
		t.Fatalf("Counter = %d", got)
	}
	if got := ptrs.Bump(n); got != 2 {
		t.Fatalf("Bump = %d", got)
	}
}

func TestLabel(t *testing.T) {
	var pool ptrs.Pool
	a, b := pool.New("a"), pool.New("b")
	if got, want := ptrs.Label(a)+" "+ptrs.Label(b), fmt.Sprintf("a@%p b@%p", a, b); got != want {
		t.Fatalf("Label = %s, want %s", got, want)
	}
}
