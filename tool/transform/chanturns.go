package transform

import (
	"go/ast"
	"go/types"
)

// Channel turn sites (runtime/probe/chanturn.go; TestTurnSites). A receive is a turn
// site when it runs in the body of a goroutine that observed code starts
// (a function literal given to a go statement or to wg.Go, or a function
// of the package that a go statement or wg.Go names) and its channel is not
// one that the body made itself: such a channel may have several
// goroutines of the observed set receiving from it (a worker pool), and
// which of them gets which value must be replayed. Receives anywhere else
// stay native (one goroutine's own channel, a collector's loop), as do
// receives in functions that a goroutine body calls.

// turnSite reports whether the receive from ch at the innermost node of
// stack is a turn site.
func (t *transformer) turnSite(ch ast.Expr, stack []ast.Node) bool {
	fn, i := innermostFunc(stack)
	if fn == nil {
		return false
	}
	body := false
	switch f := fn.(type) {
	case *ast.FuncLit:
		body = i > 0 && t.startsGoroutineWith(stack[i-1], f)
	case *ast.FuncDecl:
		if obj, ok := t.p.Info.Defs[f.Name].(*types.Func); ok {
			body = t.goTargets()[obj]
		}
	}
	if !body {
		return false
	}
	// A channel that the body declared itself is the body's own.
	if id, ok := ast.Unparen(ch).(*ast.Ident); ok {
		if v, ok := t.p.Info.Uses[id].(*types.Var); ok {
			var b *ast.BlockStmt
			switch f := fn.(type) {
			case *ast.FuncLit:
				b = f.Body
			case *ast.FuncDecl:
				b = f.Body
			}
			if b != nil && v.Pos() >= b.Pos() && v.Pos() < b.End() {
				return false
			}
		}
	}
	return true
}

// innermostFunc returns the innermost function literal or declaration of
// stack and its index.
func innermostFunc(stack []ast.Node) (ast.Node, int) {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return stack[i], i
		}
	}
	return nil, -1
}

// startsGoroutineWith reports whether parent, the node around function
// literal f, starts a goroutine running f: go f(...) or wg.Go(f).
func (t *transformer) startsGoroutineWith(parent ast.Node, f *ast.FuncLit) bool {
	call, ok := parent.(*ast.CallExpr)
	if !ok {
		return false
	}
	if ast.Unparen(call.Fun) == f {
		return t.goCalls()[call]
	}
	return len(call.Args) == 1 && ast.Unparen(call.Args[0]) == f && t.isWaitGroupGo(call)
}

func (t *transformer) isWaitGroupGo(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := t.p.Info.Uses[sel.Sel].(*types.Func)
	return ok && fn.FullName() == "(*sync.WaitGroup).Go"
}

// goCalls returns the calls of go statements of the package; goTargets the
// functions of the package that go statements and wg.Go name.
func (t *transformer) goCalls() map[*ast.CallExpr]bool {
	t.findGoroutines()
	return t.goStmtCalls
}

func (t *transformer) goTargets() map[*types.Func]bool {
	t.findGoroutines()
	return t.goFuncs
}

func (t *transformer) findGoroutines() {
	if t.goStmtCalls != nil {
		return
	}
	t.goStmtCalls = map[*ast.CallExpr]bool{}
	t.goFuncs = map[*types.Func]bool{}
	named := func(e ast.Expr) {
		var fn *types.Func
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			fn, _ = t.p.Info.Uses[x].(*types.Func)
		case *ast.SelectorExpr:
			fn, _ = t.p.Info.Uses[x.Sel].(*types.Func)
		}
		if fn != nil && fn.Pkg() == t.p.Types {
			t.goFuncs[fn.Origin()] = true
		}
	}
	for _, f := range t.p.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.GoStmt:
				t.goStmtCalls[x.Call] = true
				named(x.Call.Fun)
			case *ast.CallExpr:
				if len(x.Args) == 1 && t.isWaitGroupGo(x) {
					named(x.Args[0])
				}
			}
			return true
		})
	}
}
