package transform

import (
	"go/ast"
	"go/types"
)

// Reflection runs natively in observed code, over values the observed code
// owns (study fault F28, toml). Recording it at the boundary does not work:
// every reflect.Value method would be an outcall answered from the log, and
// the reflect.Values replay hands back are rebuilt from their recorded
// contents, not as the memory they describe, so a SetInt writes nothing,
// Kind and flags differ and Interface() returns a stand-in. Natively, a
// reflect.Value made from an owned value (reflect.ValueOf(&cfg)) reads and
// writes the same memory in replay as in the capture.
//
// That is sound only if every reflect.Value and reflect.Type observed code
// holds was made natively from a value it owns. So the transform rejects
// every other source: reflect.ValueOf and reflect.TypeOf of a value from
// outside (an interface value, a value of an unobserved type), an outcall
// returning a reflect.Value or reflect.Type, and exported functions taking
// or returning them (gen.go). What is left runs natively: the functions of
// package reflect whose arguments are owned (reflect.Value and reflect.Type
// count as owned), and the methods of reflect.Value and reflect.Type.

// isReflect reports whether typ is reflect.Value or reflect.Type.
func isReflect(typ types.Type) bool {
	n, ok := types.Unalias(typ).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "reflect" {
		return false
	}
	return n.Obj().Name() == "Value" || n.Obj().Name() == "Type"
}

// mentionsReflect returns the reflect type a value of type typ holds or
// points to ("reflect.Value"), or "".
func mentionsReflect(typ types.Type, seen map[types.Type]bool) string {
	if typ == nil || seen[typ] {
		return ""
	}
	seen[typ] = true
	if isReflect(typ) {
		return types.TypeString(typ, nil)
	}
	switch u := typ.Underlying().(type) {
	case *types.Pointer:
		return mentionsReflect(u.Elem(), seen)
	case *types.Slice:
		return mentionsReflect(u.Elem(), seen)
	case *types.Array:
		return mentionsReflect(u.Elem(), seen)
	case *types.Map:
		if r := mentionsReflect(u.Key(), seen); r != "" {
			return r
		}
		return mentionsReflect(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if r := mentionsReflect(u.Field(i).Type(), seen); r != "" {
				return r
			}
		}
	case *types.Tuple:
		for i := 0; i < u.Len(); i++ {
			if r := mentionsReflect(u.At(i).Type(), seen); r != "" {
				return r
			}
		}
	}
	return ""
}

// reflectFunc decides a call of a function of package reflect: true when it
// is handled (native, or rejected); false leaves it to the pure-function
// rules (native when its arguments are owned, else an outcall).
func (t *transformer) reflectFunc(call *ast.CallExpr, c callee) bool {
	name := c.fn.Name()
	if name != "ValueOf" && name != "TypeOf" {
		return false
	}
	if len(call.Args) != 1 {
		return false
	}
	at := t.p.Info.TypeOf(call.Args[0])
	if at == nil {
		return false
	}
	if !types.IsInterface(at) && (name == "TypeOf" || t.ownedType(at, map[types.Type]bool{})) {
		// TypeOf of a value of a static non-interface type is that type
		// whatever the value; ValueOf of an owned value is owned memory.
		return true
	}
	what := "an interface value (" + types.TypeString(at, fullQualifier) + ")"
	if _, tp := at.(*types.TypeParam); tp {
		what = "a value of type parameter " + types.TypeString(at, fullQualifier)
	} else if !types.IsInterface(at) {
		what = "a value of type " + types.TypeString(at, fullQualifier) + ", which holds references from outside the observed set"
	}
	t.errorf(call.Pos(), "reflect."+name+" of "+what+", reflection over values that may come from outside the observed set (replay cannot rebuild the memory it reads and writes),",
		"reflect only over values of the observed set's own types (not interfaces), or leave this package out of the observed set")
	return true
}

// reflectResults rejects an outcall (c, to a function outside package
// reflect) whose results hold a reflect.Value or reflect.Type: replay would
// answer it with a rebuilt value that native reflection cannot use.
func (t *transformer) reflectResults(call *ast.CallExpr, c callee) bool {
	sig, ok := t.p.Info.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok {
		return false
	}
	r := mentionsReflect(sig.Results(), map[types.Type]bool{})
	if r == "" {
		return false
	}
	name := c.name
	if name == "" {
		name = types.ExprString(call.Fun)
	}
	t.errorf(call.Pos(), "an outcall returning a "+r+" ("+name+")",
		"reflection in observed code runs natively over the observed set's own values; make the "+r+" inside the observed set (reflect.ValueOf/TypeOf of an owned value), or keep this package out of the observed set")
	return true
}
