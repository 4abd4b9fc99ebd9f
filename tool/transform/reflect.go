package transform

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// Reflection in observed code (docs/design/reflection.md). Reflection runs
// natively in every observed package, in the capture and in replay alike:
// reflect's functions and the methods of reflect.Value and reflect.Type are
// never outcalls, so writes through a reflect.Value land in the memory the
// code reflects over, in replay too, and Interface() returns the value
// itself. That is faithful only if replay hands the code the same values
// with their real dynamic types, so a package that reflects over values
// from outside the observed set (reflect.ValueOf of an `any` parameter, a
// type parameter's value, another package's type; reflect.TypeOf of an
// interface value):
//
//   - records its incalls' parameters that can carry such a value (an
//     empty interface, a type parameter, a pointer to another package's
//     type, and slices, arrays and maps of those) deeply, with the state of
//     every object of another package they reach at each call
//     (probe.EncodeReflected), and what the call may have written through
//     them after it (probe.Written, compared at the RETURN_IN);
//   - registers the exported types of the packages it imports, so that
//     replay rebuilds values of them by name;
//   - rejects what would run external code or touch external channels
//     without a record: reflect.Value's Call, CallSlice, Send, Recv,
//     TrySend, TryRecv, Close and reflect.Select.
//
// Methods of external types reached through Interface() and a type
// assertion are interface calls, outcalls like any other (walk.go).
// An outcall returning a reflect.Type is recorded by the identity of the
// type it describes and replayed as that type (value.TagReflectType).
// A reflect.Value is recorded as what it refers to: its type, its flags
// and its value, or, for an addressable one, a pointer to its memory as an
// object (value.TagReflectValue); replay makes a reflect.Value of the same
// flags over the rebuilt value or object. Rejected: an outcall returning a
// *reflect.MapIter, an iterator in the middle of a map that no recorded
// value describes.

// isReflect reports whether typ is reflect.Value or reflect.Type.
func isReflect(typ types.Type) bool {
	mapIter := false
	if p, ok := types.Unalias(typ).(*types.Pointer); ok {
		// *reflect.MapIter (rv.MapRange()), an iterator over a
		// reflect.Value's map, is native as the value is: its Key and
		// Value return reflect.Values (go-toml's marshaler).
		typ, mapIter = p.Elem(), true
	}
	n, ok := types.Unalias(typ).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "reflect" {
		return false
	}
	if mapIter {
		return n.Obj().Name() == "MapIter"
	}
	return n.Obj().Name() == "Value" || n.Obj().Name() == "Type" || n.Obj().Name() == "MapIter"
}

// reflectsOutside: the package reflects over values from outside the
// observed set (findOutsideReflection).
func (t *transformer) reflectsOutside() bool { return t.outsideReflect != "" }

// findOutsideReflection sets t.outsideReflect to the first reflect.ValueOf
// or reflect.TypeOf of a value that may come from outside, as
// "reflect.ValueOf of an interface value (any) at decode.go:137".
func (t *transformer) findOutsideReflection() {
	for _, f := range t.p.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if t.reflectWriter(call) {
				t.reflectWrites = true
			}
			if t.outsideReflect != "" || len(call.Args) != 1 {
				return true
			}
			fn := t.reflectFuncOf(call)
			if fn == nil || (fn.Name() != "ValueOf" && fn.Name() != "TypeOf") {
				return true
			}
			if what := t.outsideArg(fn.Name(), t.p.Info.TypeOf(call.Args[0])); what != "" {
				t.outsideReflect = "reflect." + fn.Name() + " of " + what + " at " + t.sitePos(call.Pos())
			}
			return true
		})
	}
	if t.reflectsOutside() {
		t.registerImportedTypes()
		t.registerImportedVars()
	}
}

// reflectFuncOf returns the function of package reflect that call calls,
// or nil.
func (t *transformer) reflectFuncOf(call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		id = fun.Sel
	case *ast.Ident:
		id = fun
	default:
		return nil
	}
	fn, ok := t.p.Info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "reflect" || fn.Type().(*types.Signature).Recv() != nil {
		return nil
	}
	return fn
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

// registerImportedTypes registers the exported types of every package the
// package imports: values of them reach its reflection from outside (a
// time.Time field of the caller's struct, a type the package special-cases)
// and replay rebuilds them by name. Types of packages it does not import
// (the caller's own) are the replay harness's to link.
func (t *transformer) registerImportedTypes() {
	for _, imp := range t.p.Types.Imports() {
		if imp.Path() == "unsafe" || imp.Path() == "C" {
			continue
		}
		scope := imp.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() || tn.IsAlias() {
				continue
			}
			if n, ok := tn.Type().(*types.Named); ok && n.TypeParams() == nil {
				t.registerType(n)
			}
		}
	}
}

// reflectWriter reports whether call may write memory through reflection:
// a Set method of reflect.Value, reflect.Copy, or Addr (whose result, made
// an interface and asserted, is a pointer the code may write through
// without a WRITE_OUT).
func (t *transformer) reflectWriter(call *ast.CallExpr) bool {
	se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := t.p.Info.Uses[se.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "reflect" {
		return false
	}
	name := fn.Name()
	if fn.Type().(*types.Signature).Recv() == nil {
		return name == "Copy"
	}
	return strings.HasPrefix(name, "Set") || name == "Addr" || name == "UnsafeAddr" || name == "UnsafePointer"
}

// unrecordedReflect: the methods of reflect.Value that run code or operate
// on channels. Over a value from outside they would call external code, or
// send and receive on an external channel, natively and without a record:
// replay's rebuilt value would run that code again, or wait on a channel
// nobody feeds.
var unrecordedReflect = map[string]string{
	"Call":      "calls the function or method it holds natively",
	"CallSlice": "calls the function or method it holds natively",
	"Send":      "sends on the channel it holds natively",
	"TrySend":   "sends on the channel it holds natively",
	"Recv":      "receives from the channel it holds natively",
	"TryRecv":   "receives from the channel it holds natively",
	"Close":     "closes the channel it holds natively",
}

// reflectMethod decides a call of a method of reflect.Value or
// reflect.Type: native, or rejected in a package that reflects over values
// from outside when the method runs code or operates on a channel. It
// always handles the call.
func (t *transformer) reflectMethod(call *ast.CallExpr, c callee) bool {
	if name, ok := t.addrSource(call); !ok || !t.addressRead(call, name) { // address.go
		if c.fn.Name() == "Pointer" && isReflectValue(c.sel.Recv()) {
			t.funcPointer(call)
		}
	}
	if !t.reflectsOutside() || types.IsInterface(c.sel.Recv()) {
		return true
	}
	if why, ok := unrecordedReflect[c.fn.Name()]; ok {
		t.errorf(call.Pos(), fmt.Sprintf("reflect.Value.%s in a package that reflects over values from outside the observed set (%s): it %s", c.fn.Name(), t.outsideReflect, why),
			"assert the interface the value implements (v.Interface().(I)) and call its method, which is recorded as an outcall, or leave this package out of the observed set")
	}
	return true
}

// funcPointer rewrites v.Pointer(), a call of reflect.Value's Pointer, into
// _capture_func_pointer(v) (probe.FuncPointer). Observed code compares
// function values from outside by their code pointer (gods' treeset:
// `reflect.ValueOf(set.tree.Comparator).Pointer() !=
// reflect.ValueOf(another.tree.Comparator).Pointer()`). The capture
// numbers such a function value by that pointer, but replay's stand-ins
// for them share reflect.MakeFunc's code: without the rewrite two
// comparators that differed in the capture were equal in replay.
func (t *transformer) funcPointer(call *ast.CallExpr) {
	se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) != 0 {
		return
	}
	if !t.owns.funcPC {
		t.owns.funcPC = true
		reflectPkg := t.alias("reflect", "reflect")
		fmt.Fprintf(&t.gen, `// _capture_func_pointer is v.Pointer(), with a pointer of its own for
// each function value replay stands in for.
func _capture_func_pointer(v %s.Value) uintptr {
	return %s.FuncPointer(v)
}

`, reflectPkg, t.probe)
	}
	span := int(call.End() - call.Pos())
	t.add(call.Pos(), call.Pos(), "_capture_func_pointer(", span)
	t.add(se.X.End(), call.End(), ")", span)
}

// reflectFunc decides a call of a function of package reflect: native,
// except reflect.Select in a package that reflects over values from
// outside (its cases' channels may be external ones). It always handles the
// call.
func (t *transformer) reflectFunc(call *ast.CallExpr, c callee) bool {
	switch c.fn.Name() {
	case "New":
		t.ownReflectNew(call) // reflectnew.go
	case "MakeSlice", "Append", "AppendSlice":
		t.ownReflectMade(call) // reflectnew.go
	}
	if t.reflectsOutside() && c.fn.Name() == "Select" {
		t.errorf(call.Pos(), "reflect.Select in a package that reflects over values from outside the observed set ("+t.outsideReflect+")",
			"use a select statement, whose operations on channels from outside are recorded, or leave this package out of the observed set")
	}
	return true
}

// reflectedType reports whether an incall parameter of type typ can carry
// a value from outside that the package reflects over: an empty interface,
// a type parameter, a pointer to another package's type, a slice, array,
// map or pointer of those, or a struct of an observed type with a field of
// one of those (mapstructure's DecoderConfig, whose Result holds the
// caller's target that Decode later reflects over).
func (t *transformer) reflectedType(typ types.Type, seen map[types.Type]bool) bool {
	if typ == nil || seen[typ] {
		return false
	}
	seen[typ] = true
	if _, ok := typ.(*types.TypeParam); ok {
		return true
	}
	if isReflectValue(typ) {
		// A reflect.Value refers to the caller's memory (mapstructure's
		// DecodeHookExec given reflect.ValueOf(&x).Elem()): what the call
		// wrote through it is recorded after the call, as for a pointer.
		return true
	}
	if n, ok := types.Unalias(typ).(*types.Named); ok && n.Obj().Pkg() != nil && t.observed[n.Obj().Pkg().Path()] {
		// An observed type is recorded whole on entry already, but an
		// outside value in one of its fields would cross as a bare
		// reference, which replay stands in for with a placeholder that
		// native reflection would walk instead of the caller's value.
		st, ok := n.Underlying().(*types.Struct)
		if !ok {
			return false
		}
		for i := 0; i < st.NumFields(); i++ {
			if t.reflectedType(st.Field(i).Type(), seen) {
				return true
			}
		}
		return false
	}
	switch u := typ.Underlying().(type) {
	case *types.Interface:
		return u.Empty()
	case *types.Pointer:
		if n, ok := types.Unalias(u.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil && !t.observed[n.Obj().Pkg().Path()] && !types.IsInterface(n) {
			return true
		}
		return t.reflectedType(u.Elem(), seen)
	case *types.Slice:
		return t.reflectedType(u.Elem(), seen)
	case *types.Array:
		return t.reflectedType(u.Elem(), seen)
	case *types.Map:
		return t.reflectedType(u.Key(), seen) || t.reflectedType(u.Elem(), seen)
	}
	return false
}

// reflectedResult reports whether an outcall's result of type typ, in a
// package that reflects over values from outside, is recorded deeply
// (probe.EncodeResultReflected) and rebuilt as its own type where the build
// links it (probe.DecodeLinked): an empty interface, or a slice, array or
// map of those, whose dynamic value the code may go on to reflect over
// (mapstructure's decode hooks return the decoded value as an interface{}
// that the decoder sets into its target by reflection, which a stand-in
// does not fit). Pointers to other packages' types are not: the code
// calls their methods, which are outcalls, and recording such objects
// whole at every sight would cost on every call.
func (t *transformer) reflectedResult(typ types.Type) bool {
	if !t.reflectsOutside() {
		return false
	}
	if _, tp := types.Unalias(typ).(*types.TypeParam); tp {
		return false
	}
	switch u := typ.Underlying().(type) {
	case *types.Interface:
		return u.Empty()
	case *types.Slice:
		return t.reflectedResult(u.Elem())
	case *types.Array:
		return t.reflectedResult(u.Elem())
	case *types.Map:
		return t.reflectedResult(u.Key()) || t.reflectedResult(u.Elem())
	}
	return false
}

// reflectedParam returns, for parameter pn of type typ of an incall of a
// package that reflects over values from outside, how it is recorded at
// the CALL_IN and what is recorded of it after the call; "" if it is
// recorded as any other parameter.
func (t *transformer) reflectedParam(pn string, typ types.Type) (enc, written string) {
	if !t.reflectsOutside() || !t.reflectedType(typ, map[types.Type]bool{}) {
		return "", ""
	}
	if !t.reflectWrites {
		// Nothing the code does through reflection writes the value:
		// recording it again after the call would only repeat it.
		return t.probe + ".EncodeReflected(s, " + pn + ")", ""
	}
	return t.probe + ".EncodeReflected(s, " + pn + ")", t.probe + ".Written(s, " + pn + ")"
}

// reflectResults rejects an outcall (c) whose results hold a reflect.Value
// (or a *reflect.MapIter): reflection runs natively, and replay would
// answer the call with a rebuilt value that native reflection cannot use,
// since the memory a reflect.Value describes is not in the log. A
// reflect.Type is recorded by the identity of the type it describes and
// replayed as that type (value.TagReflectType), so an outcall returning one
// is an outcall like any other.
func (t *transformer) reflectResults(call *ast.CallExpr, c callee) bool {
	sig, ok := t.p.Info.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok {
		return false
	}
	r := t.reflectValueHeld(sig.Results(), false)
	if r == "" {
		return false
	}
	name := c.name
	if name == "" {
		name = types.ExprString(call.Fun)
	}
	fix := "make the " + r + " inside the observed set (reflect.ValueOf/TypeOf of a value it holds), "
	if c.fn != nil && c.fn.Pkg() != nil && !c.iface && !c.funcValue && !StandardPath(c.fn.Pkg().Path()) {
		// A call of another package's function or concrete method stays
		// inside the set when that package is observed too (expr's checker
		// calling conf.New): no outcall, nothing for replay to answer. The
		// standard library is never observed.
		fix += "observe " + c.fn.Pkg().Path() + " together with this package, "
	}
	t.errorf(call.Pos(), "an outcall returning a "+r+" ("+name+") in a package whose reflection runs natively", fix+"or leave this package out of the observed set")
	return true
}

// isReflectHandle reports whether typ is a reflect type that is a handle
// into memory the log cannot describe: *reflect.MapIter, an iterator in
// the middle of a map. A reflect.Value is recorded as what it refers to
// (its type, flags and value, or a pointer to its memory:
// value.TagReflectValue) and a reflect.Type by the type it describes.
func isReflectHandle(typ types.Type) bool {
	if !isReflect(typ) {
		return false
	}
	_, ptr := types.Unalias(typ).(*types.Pointer)
	return ptr
}
