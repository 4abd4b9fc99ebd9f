// Package emptystructset reproduces a fault the study found in expr's ast
// package (optimizer.TestOptimize_in_array, "the code made a different
// boundary call than the log holds (expected RETURN_IN; at ast/dump.go:58)"):
// a node of the observed package, made by external code (expr's optimizer
// turns `v in [1, 2, 3]` into a constant set), holds a map[int]struct{} in
// an `any` field, and observed code walks the node by reflection
// (ast.Dump). The map's type is unnamed and made of the empty struct, which
// replay did not make by name: the map stood in as opaque text, a struct
// whose fields reflection walked instead of the map.
package emptystructset

import (
	"fmt"
	"reflect"
	"strings"
)

// Node is a node of a tree.
type Node interface{ Kind() string }

// Const holds a constant value of any type.
type Const struct{ Value any }

// Kind names the node.
func (c *Const) Kind() string { return "const" }

// Dump renders a node by reflection over its fields, as expr's ast.Dump.
func Dump(n Node) string { return dump(reflect.ValueOf(n)) }

func dump(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Pointer:
		return dump(v.Elem())
	case reflect.Interface:
		return dump(reflect.ValueOf(v.Interface()))
	case reflect.Struct:
		var b strings.Builder
		b.WriteString(v.Type().Name() + "{")
		for i := 0; i < v.NumField(); i++ {
			fmt.Fprintf(&b, "%s: %s;", v.Type().Field(i).Name, dump(v.Field(i)))
		}
		return b.String() + "}"
	default:
		return fmt.Sprintf("%v", v)
	}
}
