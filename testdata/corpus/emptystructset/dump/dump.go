// Package dump renders nodes by reflection over their fields, as expr's
// ast.Dump does. Its nodes hold values of any type that external code puts
// there: sets as map[K]struct{}, and other values of the empty struct
// type, whose type names replay makes without registering them.
package dump

import (
	"fmt"
	"reflect"
	"strings"
)

// Node is a node of a tree.
type Node interface{ Kind() string }

// Const holds a constant value of any type.
type Const struct {
	Name  string
	Value any
}

// Kind names the node.
func (c *Const) Kind() string { return "const" }

// Dump renders a node by reflection over its fields.
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
	case reflect.Map:
		return fmt.Sprintf("set of %d: %v", v.Len(), v)
	default:
		return fmt.Sprintf("%v", v)
	}
}
