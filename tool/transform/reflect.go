package transform

import (
	"go/ast"
	"go/types"
)

// Reflection in observed code (toml's decoder; TestRejectReflectMessage).
// Recorded at the boundary, every reflect.Value method is an outcall
// answered from the log, and the reflect.Values replay hands back are
// rebuilt from their recorded contents, not as the memory they describe: a
// SetInt on the package's own value writes nothing in replay, Interface()
// returns a stand-in of another dynamic type, kinds and flags drift. So a
// package is in one of two modes:
//
//   - it reflects only over values it owns (every reflect.ValueOf and
//     reflect.TypeOf has an owned argument of a non-interface type):
//     reflection runs natively, in capture and replay alike, and writes
//     through a reflect.Value land in observed memory. That is sound only
//     if every reflect.Value and reflect.Type the package holds was made
//     natively, so the other sources are rejected: an outcall returning a
//     reflect.Value or reflect.Type, and exported signatures holding a
//     reflect.Type (reflect.Value ones are rejected as unsafe.Pointer
//     holders, gen.go);
//   - it reflects over values from outside (reflect.ValueOf(v) with v any,
//     reflect.TypeOf of an interface value): every reflect call stays an
//     outcall, as for any external package. Inspecting kinds, types and
//     names replays from the log (pflag's TypeOf(v).Name()); reading values
//     back out of the reflected memory does not, so reflect.Value.Interface
//     is rejected there (toml's encoder and decoder).

// isReflect reports whether typ is reflect.Value or reflect.Type.
func isReflect(typ types.Type) bool {
	n, ok := types.Unalias(typ).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "reflect" {
		return false
	}
	return n.Obj().Name() == "Value" || n.Obj().Name() == "Type"
}

// nativeReflect: the package reflects only over its own values.
func (t *transformer) nativeReflect() bool { return t.outsideReflect == "" }

// findOutsideReflection sets t.outsideReflect to the first reflect.ValueOf
// or reflect.TypeOf of a value that may come from outside, as
// "reflect.ValueOf of an interface value (any) at decode.go:137".
func (t *transformer) findOutsideReflection() {
	for _, f := range t.p.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if t.outsideReflect != "" {
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			var id *ast.Ident
			switch fun := ast.Unparen(call.Fun).(type) {
			case *ast.SelectorExpr:
				id = fun.Sel
			case *ast.Ident:
				id = fun
			default:
				return true
			}
			fn, ok := t.p.Info.Uses[id].(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "reflect" || (fn.Name() != "ValueOf" && fn.Name() != "TypeOf") {
				return true
			}
			if what := t.outsideArg(fn.Name(), t.p.Info.TypeOf(call.Args[0])); what != "" {
				t.outsideReflect = "reflect." + fn.Name() + " of " + what + " at " + t.sitePos(call.Pos())
			}
			return true
		})
	}
}

// outsideArg describes the argument type at of reflect.ValueOf or TypeOf
// when the value may come from outside the observed set ("" if owned).
func (t *transformer) outsideArg(fn string, at types.Type) string {
	if at == nil {
		return ""
	}
	if _, tp := at.(*types.TypeParam); tp {
		return "a value of type parameter " + types.TypeString(at, fullQualifier)
	}
	if types.IsInterface(at) {
		return "an interface value (" + types.TypeString(at, fullQualifier) + ")"
	}
	// TypeOf of a non-interface value is its static type, whatever the
	// value; ValueOf needs memory the observed code owns.
	if fn == "ValueOf" && !t.ownedType(at, map[types.Type]bool{}) {
		return "a value of type " + types.TypeString(at, fullQualifier)
	}
	return ""
}

// reflectMethod decides a call of a method of reflect.Value or
// reflect.Type: true when handled (native, or rejected).
func (t *transformer) reflectMethod(call *ast.CallExpr, c callee) bool {
	if t.nativeReflect() {
		return true
	}
	if c.fn.Name() == "Interface" && !types.IsInterface(c.sel.Recv()) {
		t.errorf(call.Pos(), "reflect.Value.Interface in a package that reflects over values from outside the observed set ("+t.outsideReflect+")",
			"replay answers reflection over such values from the log and cannot rebuild what Interface returns as the value it was; reflect only over values of the observed set's own types (not interfaces), or leave this package out of the observed set")
		return true
	}
	return false
}

// reflectFunc decides a call of a function of package reflect: true when it
// is an outcall (the package reflects over values from outside: no reflect
// call is native there, so that no native reflect.Value meets one answered
// from the log); false leaves it to the pure-function rules.
func (t *transformer) reflectFunc() bool { return !t.nativeReflect() }

// mentionsReflect returns the reflect type a value of type typ holds or
// points to ("reflect.Value"), or "".
func mentionsReflect(typ types.Type, own *types.Package, seen map[types.Type]bool) string {
	if typ == nil || seen[typ] {
		return ""
	}
	seen[typ] = true
	if isReflect(typ) {
		return types.TypeString(typ, nil)
	}
	switch u := typ.Underlying().(type) {
	case *types.Pointer:
		return mentionsReflect(u.Elem(), own, seen)
	case *types.Slice:
		return mentionsReflect(u.Elem(), own, seen)
	case *types.Array:
		return mentionsReflect(u.Elem(), own, seen)
	case *types.Map:
		if r := mentionsReflect(u.Key(), own, seen); r != "" {
			return r
		}
		return mentionsReflect(u.Elem(), own, seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if f := u.Field(i); !f.Exported() && f.Pkg() != own {
				// Another package's unexported field (json.Decoder's
				// errorContext.Struct): the package's code cannot reach it.
				continue
			}
			if r := mentionsReflect(u.Field(i).Type(), own, seen); r != "" {
				return r
			}
		}
	case *types.Tuple:
		for i := 0; i < u.Len(); i++ {
			if r := mentionsReflect(u.At(i).Type(), own, seen); r != "" {
				return r
			}
		}
	}
	return ""
}

// reflectResults rejects, in a package whose reflection is native, an
// outcall (c) whose results hold a reflect.Value or reflect.Type: replay
// would answer it with a rebuilt value that native reflection cannot use.
func (t *transformer) reflectResults(call *ast.CallExpr, c callee) bool {
	if !t.nativeReflect() {
		return false
	}
	sig, ok := t.p.Info.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok {
		return false
	}
	r := mentionsReflect(sig.Results(), t.p.Types, map[types.Type]bool{})
	if r == "" {
		return false
	}
	name := c.name
	if name == "" {
		name = types.ExprString(call.Fun)
	}
	t.errorf(call.Pos(), "an outcall returning a "+r+" ("+name+") in a package whose reflection runs natively",
		"make the "+r+" inside the observed set (reflect.ValueOf/TypeOf of an owned value), or leave this package out of the observed set")
	return true
}
