package transform

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Out-parameters through pointers (docs/design/boundary-model.md, "Out-parameters").
//
// An argument of an outcall is an out-parameter when the callee may write
// through it and the observed code reads the memory afterwards: its parameter
// is a pointer (`*T`) or an empty interface (`v any`, `dest ...any`: the
// callee writes by reflection, as json.Unmarshal, binary.Read, fmt.Sscan and
// rows.Scan do), and the argument is an address of memory the observed code
// owns (ownedAddr). The pointee is recorded after the call and written back
// by replay before observed code continues. Pointers the observed code got
// from outside are not: in replay they are placeholders whose state never
// matters, and recording external objects after every call would be costly.

// outParamType reports whether a parameter of type pt may carry an
// out-parameter: a pointer, or an interface without methods.
func outParamType(pt types.Type) bool {
	switch u := pt.Underlying().(type) {
	case *types.Pointer:
		return true
	case *types.Interface:
		return u.NumMethods() == 0
	}
	return false
}

// ownedAddr reports whether e is the address of memory the observed code
// owns, in capture and in replay alike: &x for x rooted in a variable of this
// package (a local, a parameter's own copy, a package variable) through
// fields, array and slice elements, or through pointers to observed types;
// &T{...}; new(T); or a local pointer variable that only ever holds such
// addresses. fn is the innermost function around the call.
func (t *transformer) ownedAddr(e ast.Expr, fn ast.Node) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op != token.AND {
			return false
		}
		if _, lit := ast.Unparen(x.X).(*ast.CompositeLit); lit {
			return true
		}
		return t.ownedMemory(x.X)
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
			if b, ok := t.p.Info.Uses[id].(*types.Builtin); ok && b.Name() == "new" {
				return true
			}
		}
	case *ast.Ident:
		v, ok := t.p.Info.Uses[x].(*types.Var)
		if !ok || v.Pkg() != t.p.Types || v.Parent() == t.p.Types.Scope() || fn == nil {
			return false
		}
		if v.Pos() < fn.Pos() || v.Pos() >= fn.End() {
			// A variable of an enclosing function that a closure uses
			// (a parameter of an exported function, read in the
			// goroutine it starts): decided where it is declared.
			if fn = t.declaringFunc(v); fn == nil {
				return false
			}
		}
		if isParam(v, fn, t.p.Info) {
			return t.ownedParam(v, fn)
		}
		if _, ptr := v.Type().Underlying().(*types.Pointer); !ptr {
			return false
		}
		return t.localAddrVar(v, fn)
	}
	return false
}

// ownedParam: v is a parameter of an unexported function of this package
// that no in-package test names (isIncall), that is only ever called
// directly (never used as a value, so only this package calls it), and
// every call passes an owned address for it —
// `func decode(b []byte, v any) error { return json.Unmarshal(b, v) }`
// called as decode(b, &cfg).
func (t *transformer) ownedParam(v *types.Var, fn ast.Node) bool {
	fd, ok := fn.(*ast.FuncDecl)
	if !ok || t.isIncall(fd) || fd.Type.Params == nil {
		// Called from outside too: by external code, or by the
		// package's in-package tests.
		return false
	}
	obj, ok := t.p.Info.Defs[fd.Name].(*types.Func)
	if !ok || (fd.Recv != nil && t.ifaceMethodName(fd.Name.Name)) {
		// A method an interface of the package names may be called
		// through the interface, at sites callSites does not see.
		return false
	}
	sig := obj.Type().(*types.Signature)
	idx := -1
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Params().At(i) == v {
			idx = i
		}
	}
	if idx < 0 || (sig.Variadic() && idx == sig.Params().Len()-1) {
		return false
	}
	if t.paramOwned == nil {
		t.paramOwned = map[*types.Var]bool{}
	}
	if r, done := t.paramOwned[v]; done {
		return r
	}
	if t.paramDeciding[v] {
		// Recursion (reflectValue(values, ...) passing its own parameter
		// on): a call that forwards the parameter adds no address that is
		// not owned, so assume it owned while deciding.
		return true
	}
	if t.paramDeciding == nil {
		t.paramDeciding = map[*types.Var]bool{}
	}
	t.paramDeciding[v] = true
	sites, escapes := t.callSites(obj)
	r := !escapes && len(sites) > 0
	for _, cs := range sites {
		if !r {
			break
		}
		r = idx < len(cs.call.Args) && t.ownedAddr(cs.call.Args[idx], cs.fn)
	}
	delete(t.paramDeciding, v)
	if !r || len(t.paramDeciding) == 0 {
		// A yes decided while another parameter is assumed owned holds
		// only if that one is: decided again from the top.
		t.paramOwned[v] = r
	}
	return r
}

// ifaceMethodName reports whether an interface type in the package has a
// method called name. The names are collected once per package.
func (t *transformer) ifaceMethodName(name string) bool {
	if t.ifaceMethods == nil {
		t.ifaceMethods = map[string]bool{}
		for _, f := range t.p.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if it, ok := n.(*ast.InterfaceType); ok {
					for _, m := range it.Methods.List {
						for _, id := range m.Names {
							t.ifaceMethods[id.Name] = true
						}
					}
				}
				return true
			})
		}
	}
	return t.ifaceMethods[name]
}

type callSite struct {
	call *ast.CallExpr
	fn   ast.Node // the function the call is in
}

// callSites lists the direct calls of fn in the package, and reports
// whether fn is used in any other way (a function value: callers unknown).
func (t *transformer) callSites(fn *types.Func) ([]callSite, bool) {
	var sites []callSite
	escapes := false
	for _, f := range t.p.Files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			stack = append(stack, n)
			id, ok := n.(*ast.Ident)
			if !ok || t.p.Info.Uses[id] != fn {
				return true
			}
			if len(stack) >= 2 {
				if call, ok := stack[len(stack)-2].(*ast.CallExpr); ok && ast.Unparen(call.Fun) == id {
					sites = append(sites, callSite{call, enclosingFuncNode(stack)})
					return true
				}
			}
			if len(stack) >= 3 {
				// A method called on its receiver: x.m(a).
				sel, isSel := stack[len(stack)-2].(*ast.SelectorExpr)
				call, isCall := stack[len(stack)-3].(*ast.CallExpr)
				if isSel && isCall && sel.Sel == id && ast.Unparen(call.Fun) == sel {
					sites = append(sites, callSite{call, enclosingFuncNode(stack)})
					return true
				}
			}
			escapes = true
			return true
		})
	}
	return sites, escapes
}

// ownedMemory: x is an addressable expression rooted in memory the observed
// code owns.
func (t *transformer) ownedMemory(x ast.Expr) bool {
	switch y := ast.Unparen(x).(type) {
	case *ast.Ident:
		v, ok := t.p.Info.Uses[y].(*types.Var)
		return ok && v.Pkg() == t.p.Types
	case *ast.SelectorExpr:
		sel, ok := t.p.Info.Selections[y]
		if !ok || sel.Kind() != types.FieldVal {
			return false
		}
		if _, ptr := t.p.Info.TypeOf(y.X).Underlying().(*types.Pointer); ptr || len(sel.Index()) > 1 {
			// Through a pointer: an observed object is the real one in
			// replay, anything else may be a placeholder.
			return t.observedPointer(t.p.Info.TypeOf(y.X)) && len(sel.Index()) == 1
		}
		return t.ownedMemory(y.X)
	case *ast.IndexExpr:
		switch t.p.Info.TypeOf(y.X).Underlying().(type) {
		case *types.Array, *types.Slice:
			// Slices cross the boundary by their contents: replay's are real.
			return t.ownedMemory(y.X)
		}
	case *ast.StarExpr:
		return t.observedPointer(t.p.Info.TypeOf(y.X))
	}
	return false
}

// observedPtrOut marks, in outParams' answer, an argument that is an
// out-parameter only because it points to a struct of an observed type.
const observedPtrOut = -2

// observedPtrParam reports whether arg, passed for a parameter of pointer
// type pt, points to a struct of an observed type, however the code got it
// (`opt.SetConfig(config)` with `config := NewConfig()`, or with a field
// `r.config`: goldmark's renderer options fill the configuration's map and
// slice fields). An observed object is the real one in replay, as in the
// capture, so what external code writes into it during the call (or below
// it: a map or slice it holds) is memory the observed code reads natively
// afterwards. Only for a parameter the callee declares as such a pointer:
// an `any` parameter (fmt.Sprint(obj)) rarely writes, and recording the
// object after each would cost much.
func (t *transformer) observedPtrParam(pt types.Type, arg ast.Expr) bool {
	if _, ptr := pt.Underlying().(*types.Pointer); !ptr {
		return false
	}
	at := t.p.Info.TypeOf(arg)
	if !t.observedPointer(at) {
		return false
	}
	_, isStruct := at.Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	return isStruct
}

func (t *transformer) observedPointer(typ types.Type) bool {
	p, ok := typ.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && t.observed[n.Obj().Pkg().Path()]
}

// localAddrVar: v, a local pointer variable of function fn, is only ever
// assigned owned addresses (`v := &Config{}`, `v := new(T)`, `v = &x`) and
// its own address is never taken.
func (t *transformer) localAddrVar(v *types.Var, fn ast.Node) bool {
	if isParam(v, fn, t.p.Info) {
		return false
	}
	ok := true
	check := func(lhs []ast.Expr, rhs []ast.Expr) {
		for i, l := range lhs {
			id, isID := ast.Unparen(l).(*ast.Ident)
			if !isID || (t.p.Info.Defs[id] != v && t.p.Info.Uses[id] != v) {
				continue
			}
			if len(rhs) != len(lhs) || !t.ownedAddr(rhs[i], nil) {
				ok = false
			}
		}
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			check(s.Lhs, s.Rhs)
		case *ast.ValueSpec:
			if len(s.Values) > 0 {
				lhs := make([]ast.Expr, len(s.Names))
				for i, id := range s.Names {
					lhs[i] = id
				}
				check(lhs, s.Values)
			}
		case *ast.RangeStmt:
			check([]ast.Expr{s.Key, s.Value}, nil)
		case *ast.UnaryExpr:
			if id, isID := ast.Unparen(s.X).(*ast.Ident); isID && s.Op == token.AND && t.p.Info.Uses[id] == v {
				ok = false
			}
		}
		return ok
	})
	return ok
}

func isParam(v *types.Var, fn ast.Node, info *types.Info) bool {
	var ft *ast.FuncType
	switch f := fn.(type) {
	case *ast.FuncDecl:
		ft = f.Type
		if f.Recv != nil {
			for _, fld := range f.Recv.List {
				for _, n := range fld.Names {
					if info.Defs[n] == v {
						return true
					}
				}
			}
		}
	case *ast.FuncLit:
		ft = f.Type
	default:
		return true
	}
	for _, fl := range []*ast.FieldList{ft.Params, ft.Results} {
		if fl == nil {
			continue
		}
		for _, fld := range fl.List {
			for _, n := range fld.Names {
				if info.Defs[n] == v {
					return true
				}
			}
		}
	}
	return false
}

// declaringFunc is the innermost function declaration or literal whose
// span holds v's declaration, nil if none.
func (t *transformer) declaringFunc(v *types.Var) ast.Node {
	var fn ast.Node
	for _, f := range t.p.Files {
		if v.Pos() < f.Pos() || v.Pos() >= f.End() {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil || v.Pos() < n.Pos() || v.Pos() >= n.End() {
				return false
			}
			switch n.(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				fn = n
			}
			return true
		})
	}
	return fn
}

// enclosingFuncNode is the innermost function declaration or literal in stack.
func enclosingFuncNode(stack []ast.Node) ast.Node {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return stack[i]
		}
	}
	return nil
}

// outParams finds the out-parameters of an outcall: for parameter i of sig,
// -1 if the argument is one, observedPtrOut if it is one only because it
// points to a struct of an observed type (which logs of format
// probe.LastUnmarkedOutFormat and before do not record), or for a variadic
// parameter the indices into the variadic slice of the arguments that are
// (nil: none).
func (t *transformer) outParams(call *ast.CallExpr, sig *types.Signature, stack []ast.Node) map[int][]int {
	fn := enclosingFuncNode(stack)
	out := map[int][]int{}
	n := sig.Params().Len()
	for i := 0; i < n; i++ {
		pt := sig.Params().At(i).Type()
		if sig.Variadic() && i == n-1 {
			if call.Ellipsis.IsValid() || !outParamType(pt.(*types.Slice).Elem()) {
				continue
			}
			for k := i; k < len(call.Args); k++ {
				if t.ownedAddr(call.Args[k], fn) {
					out[i] = append(out[i], k-i)
				}
			}
			continue
		}
		if i < len(call.Args) && outParamType(pt) && !syncPointer(t.p.Info.TypeOf(call.Args[i])) {
			if t.ownedAddr(call.Args[i], fn) {
				out[i] = []int{-1}
			} else if t.observedPtrParam(pt, call.Args[i]) {
				out[i] = []int{observedPtrOut}
			}
		}
	}
	return out
}
