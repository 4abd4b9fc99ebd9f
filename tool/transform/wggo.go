package transform

import (
	"fmt"
	"go/ast"
	"go/types"
)

// Goroutines that the standard library starts for observed code.
// wg.Go(f) (sync.WaitGroup.Go, Go 1.25) runs f on a goroutine that package
// sync starts: it is a go statement in all but syntax (TestCorpus/wggo).
// Left native, f would run on a goroutine no GO event links, so replay would
// meet its boundary events on a goroutine it did not start.
//
// wg.Go(f) becomes _capture_go_with(&site, wg.Go, f), calling
// probe.GoWith, which records the GO
// event in the parent (as for a go statement) and hands sync a function
// that binds the new goroutine to the child stream before it calls f. sync still does the Add and the Done, in capture and in replay, so
// wg.Wait() in observed code returns as it did; the method value wg.Go
// keeps whatever receiver expression the code wrote (a local WaitGroup, a
// pointer, an embedded field). The call is native even on a WaitGroup that
// crossed the boundary: its Add and Done are what external code waits for
// in the capture, and in replay they touch a placeholder nobody waits on.

// startsGoroutine reports whether the method c calls starts a goroutine
// running its function argument.
func startsGoroutine(c callee) bool {
	return c.sel != nil && c.fn.FullName() == "(*sync.WaitGroup).Go"
}

// waitGroupGo routes wg.Go(f) through probe.GoWith (above). f must be
// observed code named statically, as in a go statement: a function literal,
// a function of an observed package or a method value of an observed type.
func (t *transformer) waitGroupGo(call *ast.CallExpr, c callee, stack []ast.Node) {
	if len(call.Args) != 1 {
		return // does not type-check
	}
	name := t.startedFunc(call.Args[0], stack)
	if name == "" {
		t.errorf(call.Pos(), "(*sync.WaitGroup).Go with external code or a function value", "pass a function literal, wg.Go(func() { f() }), so that its calls are recorded as outcalls")
		return
	}
	site := t.siteVar("go "+name+" by (*sync.WaitGroup).Go", t.sitePos(call.Lparen), false)
	if !t.goWith {
		t.goWith = true
		fmt.Fprintf(&t.gen, "// _capture_go_with starts fn through start (wg.Go) on a goroutine of its own stream.\nfunc _capture_go_with(site *%s.Site, start func(func()), fn func()) {\n\t%s.GoWith(site, start, fn)\n}\n\n", t.probe, t.probe)
	}
	// wg.Go(f) -> _capture_go_with(&site, wg.Go, f)
	span := int(call.End() - call.Pos())
	t.add(call.Fun.Pos(), call.Fun.Pos(), "_capture_go_with(&"+site+", ", span)
	t.add(call.Fun.End(), call.Lparen+1, ", ", span)
}

// startedFunc names the function that expression f (the function a
// goroutine will run) denotes if it is observed code: "func literal in
// <enclosing function>", or the full name of an observed function or of a
// method of an observed concrete type; "" otherwise.
func (t *transformer) startedFunc(f ast.Expr, stack []ast.Node) string {
	info := t.p.Info
	var fn *types.Func
	f = ast.Unparen(f)
	if ix, ok := f.(*ast.IndexExpr); ok { // an explicit instantiation, g[T]
		f = ix.X
	} else if ix, ok := f.(*ast.IndexListExpr); ok {
		f = ix.X
	}
	switch x := f.(type) {
	case *ast.FuncLit:
		return "func literal in " + t.enclosingFunc(stack)
	case *ast.Ident:
		fn, _ = info.Uses[x].(*types.Func)
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok {
			if sel.Kind() == types.MethodVal && !types.IsInterface(sel.Recv()) {
				fn, _ = sel.Obj().(*types.Func)
			}
		} else {
			fn, _ = info.Uses[x.Sel].(*types.Func)
		}
	}
	if fn != nil && fn.Pkg() != nil && t.observed[fn.Pkg().Path()] {
		return fn.FullName()
	}
	return ""
}
