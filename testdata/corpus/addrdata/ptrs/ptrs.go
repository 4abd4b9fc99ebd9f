// Package ptrs turns addresses into data, as go-spew does: it prints the
// addresses of the values it is given and of values it allocates, finds
// shared and cyclic pointers by address, and orders its own objects by
// address.
package ptrs

import (
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unsafe"
)

func hex(p uintptr) string { return "0x" + strconv.FormatUint(uint64(p), 16) }

// Dump writes v, following pointers, with the address of each pointer it
// follows (reflect.Value.Pointer); a pointer seen before prints as a
// reference to it.
func Dump(w io.Writer, v any) {
	seen := map[uintptr]bool{}
	var b strings.Builder
	dump(&b, reflect.ValueOf(v), seen)
	io.WriteString(w, b.String())
}

func dump(b *strings.Builder, v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		addr := v.Pointer()
		b.WriteString("(" + hex(addr) + ")")
		if seen[addr] {
			b.WriteString("<seen>")
			return
		}
		seen[addr] = true
		dump(b, v.Elem(), seen)
	case reflect.Struct:
		b.WriteString("{")
		for i := 0; i < v.NumField(); i++ {
			if i > 0 {
				b.WriteString(" ")
			}
			dump(b, v.Field(i), seen)
		}
		b.WriteString("}")
	case reflect.Map, reflect.Chan, reflect.Func:
		b.WriteString(v.Kind().String() + "@" + hex(v.Pointer()))
	case reflect.Int:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	default:
		b.WriteString(v.Type().String())
	}
}

// Node is a value the package allocates.
type Node struct {
	Name string
	Next *Node
	n    int
}

// Pool hands out nodes and lists them by address.
type Pool struct {
	nodes []*Node
}

// New allocates a node named name.
func (p *Pool) New(name string) *Node {
	n := &Node{Name: name, n: len(p.nodes)}
	p.nodes = append(p.nodes, n)
	return n
}

// ByAddress returns the names of the pool's nodes in the order of their
// addresses (uintptr(unsafe.Pointer(n))), as a pointer-keyed sorter does.
func (p *Pool) ByAddress() []string {
	nodes := append([]*Node(nil), p.nodes...)
	sort.Slice(nodes, func(i, j int) bool {
		return uintptr(unsafe.Pointer(nodes[i])) < uintptr(unsafe.Pointer(nodes[j]))
	})
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = n.Name
	}
	return names
}

// Where reports where the counter field of node n lies, by its address
// (reflect.Value.UnsafeAddr), and its offset from the node's start.
func Where(n *Node) string {
	f := reflect.ValueOf(n).Elem().Field(2)
	return hex(f.UnsafeAddr()) + "+" + strconv.FormatUint(uint64(f.UnsafeAddr()-uintptr(unsafe.Pointer(n))), 10)
}

// Counter reads node n's unexported counter through its address: an
// address turned back into a pointer, which must stay the real one.
func Counter(n *Node) int {
	off := unsafe.Offsetof(n.n)
	return *(*int)(unsafe.Pointer(uintptr(unsafe.Pointer(n)) + off))
}

// Bump adds one to node n's counter through the address reflection gives.
func Bump(n *Node) int {
	f := reflect.ValueOf(n).Elem().Field(2)
	base := f.UnsafeAddr()
	p := (*int)(unsafe.Pointer(base))
	*p++
	return *p
}

// Label names node n by its name and address, as fmt's %p prints it.
func Label(n *Node) string {
	return fmt.Sprintf("%s@%p", n.Name, n)
}
