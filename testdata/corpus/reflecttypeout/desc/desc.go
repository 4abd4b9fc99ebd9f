// Package desc reflects natively over reflect.Types that outcalls
// return (expr's checker over nature.FromType, ast.Node.Type): found in
// expr, whose root, ast and checker/nature packages were rejected up front
// ("an outcall returning a reflect.Type"). Replay must hand the code the
// very types the capture's outcalls returned, by their names.
package desc

import (
	"reflect"
	"strconv"

	"example.com/reflecttypeout/schema"
)

// Describe lists what native reflection finds in the type registered under
// name: its kind, its fields or elements, a zero value made of it, and
// whether the two outcalls returned the same type.
func Describe(name string) []string {
	t := schema.Lookup(name) // an outcall returning a reflect.Type
	e := schema.Info(name)   // an outcall returning a struct holding one
	out := []string{t.String(), e.Kind.String()}
	switch t.Kind() {
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			out = append(out, t.Field(i).Name+" "+t.Field(i).Type.String())
		}
	case reflect.Func:
		out = append(out, strconv.Itoa(t.NumIn()), strconv.FormatBool(t.IsVariadic()), t.Out(0).String())
	case reflect.Array, reflect.Map:
		out = append(out, t.Elem().String())
	}
	z := reflect.Zero(e.Type)
	out = append(out, strconv.FormatBool(z.IsZero()), strconv.FormatBool(e.Type == t))
	return out
}

// Seen counts the distinct types registered under names, in a map keyed by
// reflect.Type.
func Seen(names ...string) int {
	seen := map[reflect.Type]bool{}
	for _, n := range names {
		seen[schema.Lookup(n)] = true
	}
	return len(seen)
}
