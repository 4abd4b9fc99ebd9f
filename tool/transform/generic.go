package transform

import (
	"go/ast"
	"go/types"
	"strings"
)

// Generic observed code (docs/design/boundary-model.md, "Generics").
//
// An exported generic function or method of a generic type keeps its type
// parameters: its wrapper, recording helper and replay invoker are generic
// too, and each instantiation is a site of its own, named with its type
// arguments at run time (probe.Instance). Replay can only invoke
// instantiations the replay build contains; the package exports a hook per
// generic incall, CaptureInstance_<F> or CaptureInstance_<T>_<M>, which the
// replay harness calls with the type arguments the logs name.
//
// Outcall helpers whose signature mentions a type parameter of the
// enclosing function are generic over that function's type parameters and
// are called with them: `f(x)` in Map[T, U] becomes `_capture_out_3[T, U](f, x)`.

// InstanceHookPrefix starts the names of the exported hooks through which
// a replay harness instantiates generic incalls.
const InstanceHookPrefix = "CaptureInstance_"

// hasTypeParam reports whether typ mentions a type parameter.
func hasTypeParam(typ types.Type) bool {
	seen := map[types.Type]bool{}
	var walk func(types.Type) bool
	walk = func(typ types.Type) bool {
		if typ == nil || seen[typ] {
			return false
		}
		seen[typ] = true
		switch x := typ.(type) {
		case *types.TypeParam:
			return true
		case *types.Named:
			if ta := x.TypeArgs(); ta != nil {
				for i := 0; i < ta.Len(); i++ {
					if walk(ta.At(i)) {
						return true
					}
				}
			}
		case *types.Alias:
			return walk(types.Unalias(x))
		case *types.Pointer:
			return walk(x.Elem())
		case *types.Slice:
			return walk(x.Elem())
		case *types.Array:
			return walk(x.Elem())
		case *types.Chan:
			return walk(x.Elem())
		case *types.Map:
			return walk(x.Key()) || walk(x.Elem())
		case *types.Tuple:
			for i := 0; i < x.Len(); i++ {
				if walk(x.At(i).Type()) {
					return true
				}
			}
		case *types.Signature:
			if x.Recv() != nil && walk(x.Recv().Type()) {
				return true
			}
			return walk(x.Params()) || walk(x.Results())
		case *types.Struct:
			for i := 0; i < x.NumFields(); i++ {
				if walk(x.Field(i).Type()) {
					return true
				}
			}
		case *types.Interface:
			for i := 0; i < x.NumMethods(); i++ {
				if walk(x.Method(i).Type()) {
					return true
				}
			}
			for i := 0; i < x.NumEmbeddeds(); i++ {
				if walk(x.EmbeddedType(i)) {
					return true
				}
			}
		case *types.Union:
			for i := 0; i < x.Len(); i++ {
				if walk(x.Term(i).Type()) {
					return true
				}
			}
		}
		return false
	}
	return walk(typ)
}

// typeParams prints a type parameter list for a declaration ("[T any, U
// comparable]") and for an instantiation with the same names ("[T, U]"),
// or reports why it cannot.
func (t *transformer) typeParams(tps *types.TypeParamList) (decl, args, why string) {
	if tps == nil || tps.Len() == 0 {
		return "", "", ""
	}
	saved := t.allowTP
	t.allowTP = true
	defer func() { t.allowTP = saved }()
	var ds, as []string
	for i := 0; i < tps.Len(); i++ {
		tp := tps.At(i)
		if tp.Obj().Name() == "_" {
			return "", "", "a blank type parameter"
		}
		c, w := t.typeString(tp.Constraint())
		if w != "" {
			return "", "", "a constraint naming " + w
		}
		ds = append(ds, tp.Obj().Name()+" "+c)
		as = append(as, tp.Obj().Name())
	}
	return "[" + strings.Join(ds, ", ") + "]", "[" + strings.Join(as, ", ") + "]", ""
}

// enclosingTypeParams returns the type parameters in scope at the innermost
// node of stack: those of the enclosing function or method declaration.
func (t *transformer) enclosingTypeParams(stack []ast.Node) *types.TypeParamList {
	for i := len(stack) - 1; i >= 0; i-- {
		fd, ok := stack[i].(*ast.FuncDecl)
		if !ok {
			continue
		}
		fn, ok := t.p.Info.Defs[fd.Name].(*types.Func)
		if !ok {
			return nil
		}
		sig := fn.Type().(*types.Signature)
		if sig.RecvTypeParams() != nil {
			return sig.RecvTypeParams()
		}
		return sig.TypeParams()
	}
	return nil
}

// instanceHook is the name of the exported hook that instantiates the
// generic incall of function name (method of recvName when not "").
func instanceHook(recvName, name string) string {
	if recvName != "" {
		return InstanceHookPrefix + recvName + "_" + name
	}
	return InstanceHookPrefix + name
}

// instanceArgs names the type arguments of a call of a generic function,
// "[int,string]" (type parameters of the enclosing code by name), or "".
func (t *transformer) instanceArgs(fun ast.Expr) string {
	id, ok := fun.(*ast.Ident)
	if sx, isSel := fun.(*ast.SelectorExpr); isSel {
		id, ok = sx.Sel, true
	}
	if !ok {
		return ""
	}
	inst, ok := t.p.Info.Instances[id]
	if !ok || inst.TypeArgs == nil || inst.TypeArgs.Len() == 0 {
		return ""
	}
	var as []string
	for i := 0; i < inst.TypeArgs.Len(); i++ {
		as = append(as, types.TypeString(inst.TypeArgs.At(i), fullQualifier))
	}
	return "[" + strings.Join(as, ",") + "]"
}

// ownedTypeSet reports whether every type a constraint admits is owned
// (cmp.Ordered: numbers and strings); a constraint without type terms
// (any, fmt.Stringer) admits external references, which are placeholders
// in replay.
func (t *transformer) ownedTypeSet(constraint types.Type, seen map[types.Type]bool) bool {
	iface, ok := constraint.Underlying().(*types.Interface)
	if !ok {
		return t.ownedType(constraint, seen)
	}
	if iface.IsMethodSet() {
		return false
	}
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		switch e := iface.EmbeddedType(i).(type) {
		case *types.Union:
			for j := 0; j < e.Len(); j++ {
				if !t.ownedTypeSet(e.Term(j).Type(), seen) {
					return false
				}
			}
		default:
			if !t.ownedTypeSet(e, seen) {
				return false
			}
		}
	}
	return true
}

// inferredCallee is the callee a helper calls for a call of an external
// generic function whose type arguments the source leaves to inference
// (simplelru.NewLRU(size, onEvicted) in NewWithEvict[K, V]): the function
// instantiated explicitly in the generated file, simplelru.NewLRU[K, V].
// Passing the function itself to the helper, as a function value is,
// would be an implicitly instantiated function as an argument, which only
// go1.21 accepts, and the instrumented file keeps its module's older
// language version (langversion.go); nor can the source name the type
// arguments, whose packages it may not import. pkgName is the package name
// the call site qualified the function with, whose reference the site
// loses, with any other package its explicit type arguments name (a
// partial instantiation, pkg.F[T](x), is as much an implicit one). ok is
// false when the call is no such call (a function value, a full explicit
// instantiation, a dot-imported function: passed as before).
func (t *transformer) inferredCallee(call *ast.CallExpr, c callee) (callee string, usesTP bool, ok bool, why string) {
	if c.sel != nil || c.funcValue || c.fn == nil || c.fn.Pkg() == nil {
		return "", false, false, ""
	}
	fun, explicit := ast.Unparen(call.Fun), 0
	switch ix := fun.(type) {
	case *ast.IndexExpr: // pkg.F[T](x) of an F with more type parameters
		fun, explicit = ix.X, 1
	case *ast.IndexListExpr:
		fun, explicit = ix.X, len(ix.Indices)
	}
	sx, isSel := fun.(*ast.SelectorExpr)
	if !isSel {
		return "", false, false, ""
	}
	x, isIdent := sx.X.(*ast.Ident)
	if !isIdent {
		return "", false, false, ""
	}
	if _, isPkg := t.p.Info.Uses[x].(*types.PkgName); !isPkg {
		return "", false, false, ""
	}
	inst, found := t.p.Info.Instances[sx.Sel]
	if !found || inst.TypeArgs == nil || inst.TypeArgs.Len() <= explicit {
		// Not generic, or instantiated in full (pkg.F[int, string]): a
		// function value like any other.
		return "", false, false, ""
	}
	var as []string
	for i := 0; i < inst.TypeArgs.Len(); i++ {
		ta := inst.TypeArgs.At(i)
		s, w := t.typeString(ta)
		if w != "" {
			return "", false, false, w
		}
		usesTP = usesTP || hasTypeParam(ta)
		as = append(as, s)
	}
	return t.alias(c.fn.Pkg().Path(), c.fn.Pkg().Name()) + "." + c.fn.Name() + "[" + strings.Join(as, ", ") + "]", usesTP, true, ""
}

// dropRefs notes that the file being walked no longer holds expression x,
// and so its references to imported packages.
func (t *transformer) dropRefs(x ast.Expr) {
	ast.Inspect(x, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		pn, ok := t.p.Info.Uses[id].(*types.PkgName)
		if !ok {
			return true
		}
		if t.droppedRefs == nil {
			t.droppedRefs = map[int]map[*types.PkgName]int{}
		}
		if t.droppedRefs[t.file] == nil {
			t.droppedRefs[t.file] = map[*types.PkgName]int{}
		}
		t.droppedRefs[t.file][pn]++
		return true
	})
}

// unusedImports are the edits that keep file i's imports whose every
// reference the rewritten call sites dropped, under the blank name: the
// package stays imported (for its initialisation, as before), and the file
// compiles ("imported and not used" otherwise).
func (t *transformer) unusedImports(i int) []edit {
	dropped := t.droppedRefs[i]
	if len(dropped) == 0 {
		return nil
	}
	f := t.p.Files[i]
	uses := map[*types.PkgName]int{}
	for id, obj := range t.p.Info.Uses {
		if pn, ok := obj.(*types.PkgName); ok && dropped[pn] > 0 && id.Pos() >= f.Pos() && id.Pos() < f.End() {
			uses[pn]++
		}
	}
	var es []edit
	for _, imp := range f.Imports {
		var pn *types.PkgName
		if imp.Name != nil {
			pn, _ = t.p.Info.Defs[imp.Name].(*types.PkgName)
		} else {
			pn, _ = t.p.Info.Implicits[imp].(*types.PkgName)
		}
		if pn == nil || dropped[pn] == 0 || uses[pn] > dropped[pn] {
			continue
		}
		if imp.Name != nil {
			es = append(es, edit{t.offset(imp.Name.Pos()), t.offset(imp.Name.End()), "_", 0})
		} else {
			es = append(es, edit{t.offset(imp.Path.Pos()), t.offset(imp.Path.Pos()), "_ ", 0})
		}
	}
	return es
}
