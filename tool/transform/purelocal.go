package transform

import (
	"go/ast"
	"go/token"
	"go/types"
)

// pureLocal reports whether x, the pointer receiver of a method of a pure
// package's type, is a local variable of fn that only ever holds results of
// calls that run natively: a pure package's function with owned arguments
// (`w := csv.NewWriter(&buf)`). Such an object is the observed code's own in
// replay too, so its methods run natively and write where the code reads
// (pflag's stringToStringValue.String formats into a bytes.Buffer through a
// csv.Writer; with the writer's calls answered from the log, the buffer
// stayed empty in replay). Its address must not be taken and it must not be
// passed anywhere but as a receiver.
func (t *transformer) pureLocal(x ast.Expr, fn ast.Node) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok || fn == nil {
		return false
	}
	v, ok := t.p.Info.Uses[id].(*types.Var)
	if !ok || v.Pkg() != t.p.Types || v.Parent() == t.p.Types.Scope() || isParam(v, fn, t.p.Info) {
		return false
	}
	ok = true
	assigned := false
	check := func(lhs, rhs []ast.Expr) {
		for i, l := range lhs {
			lid, isID := ast.Unparen(l).(*ast.Ident)
			if !isID || (t.p.Info.Defs[lid] != v && t.p.Info.Uses[lid] != v) {
				continue
			}
			assigned = true
			if len(rhs) != len(lhs) || !t.nativePureCall(rhs[i]) {
				ok = false
			}
		}
	}
	var stack []ast.Node
	ast.Inspect(fn, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		switch s := n.(type) {
		case *ast.AssignStmt:
			check(s.Lhs, s.Rhs)
		case *ast.ValueSpec:
			lhs := make([]ast.Expr, len(s.Names))
			for i, n := range s.Names {
				lhs[i] = n
			}
			check(lhs, s.Values)
		case *ast.RangeStmt:
			check([]ast.Expr{s.Key, s.Value}, nil)
		case *ast.Ident:
			if t.p.Info.Uses[s] != v || len(stack) < 2 {
				break
			}
			// Every use of v is a method call's receiver or an assignment's
			// left-hand side: no copy of the pointer escapes to other code.
			switch p := stack[len(stack)-2].(type) {
			case *ast.SelectorExpr:
				if sel, isSel := t.p.Info.Selections[p]; !isSel || sel.Kind() != types.MethodVal || p.X != s {
					ok = false
				}
			case *ast.AssignStmt:
				for _, r := range p.Rhs {
					if r == s {
						ok = false
					}
				}
			case *ast.UnaryExpr:
				if p.Op == token.AND {
					ok = false
				}
			default:
				ok = false
			}
		}
		return ok
	})
	return ok && assigned
}

// nativePureCall: e is a call of a pure package-level function whose
// arguments the observed code owns, which the transform leaves native.
func (t *transformer) nativePureCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	var fn *types.Func
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		fn, _ = t.p.Info.Uses[f.Sel].(*types.Func)
	case *ast.Ident:
		fn, _ = t.p.Info.Uses[f].(*types.Func)
	}
	if fn == nil || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil || t.observed[fn.Pkg().Path()] {
		return false
	}
	return purePackages[fn.Pkg().Path()] && fn.Pkg().Path() != "reflect" && t.ownedArgs(call)
}
