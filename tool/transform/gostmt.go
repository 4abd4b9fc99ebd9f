package transform

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// goStmt routes `go f(a, b)` through a generated helper, _capture_go_N(f, a, b),
// which evaluates f and the arguments in the parent goroutine as the go
// statement does, records a GO event linking a new stream, and starts the
// goroutine bound to that stream. Only observed code may be started: a
// function literal, a function of an observed package or a method of an
// observed type; anything else would run external code unrecorded.
func (t *transformer) goStmt(g *ast.GoStmt, stack []ast.Node) {
	info := t.p.Info
	call := g.Call
	name := t.startedFunc(call.Fun, stack)
	if name == "" {
		t.errorf(g.Pos(), "a go statement starting external code or a function value", "start it inside a function literal, go func() { ... }(), so that its calls are recorded as outcalls")
		return
	}
	if tv, ok := info.Types[call.Fun]; !ok || tv.IsBuiltin() {
		t.errorf(g.Pos(), "a go statement of a builtin", "start it inside a function literal, go func() { ... }()")
		return
	}
	sig, ok := info.TypeOf(call.Fun).(*types.Signature)
	if !ok {
		return
	}
	fts, why := t.typeString(sig)
	if why != "" {
		t.errorf(g.Pos(), "a go statement involving "+why, "start it inside a function literal that takes no arguments")
		return
	}
	decls := []string{"fn " + fts}
	var args []string
	for i := 0; i < sig.Params().Len(); i++ {
		ts, why := t.typeString(sig.Params().At(i).Type())
		if why != "" {
			t.errorf(g.Pos(), "a go statement with an argument of "+why, "start it inside a function literal that takes no arguments")
			return
		}
		pn := fmt.Sprintf("p%d", i)
		if sig.Variadic() && i == sig.Params().Len()-1 {
			if call.Ellipsis.IsValid() {
				decls = append(decls, pn+" "+ts)
			} else {
				decls = append(decls, pn+" ..."+strings.TrimPrefix(ts, "[]"))
			}
			args = append(args, pn+"...")
		} else {
			decls = append(decls, pn+" "+ts)
			args = append(args, pn)
		}
	}
	site := t.siteVar("go "+name, t.sitePos(g.Go), false)
	h := strings.Replace(site, "_site_", "_go_", 1)
	fmt.Fprintf(&t.gen, "// %s starts %s (%s) on a goroutine of its own stream.\n", h, name, t.sitePos(g.Go))
	fmt.Fprintf(&t.gen, "func %s(%s) {\n\tc := %s.Go(&%s)\n\tgo func() {\n\t\tdefer c.End()\n\t\tc.Start()\n\t\tfn(%s)\n\t}()\n}\n\n",
		h, strings.Join(decls, ", "), t.probe, site, strings.Join(args, ", "))
	// go f(a, b) -> h(f, a, b); go f() -> h(f); go f(xs...) -> h(f, xs)
	span := int(g.End() - g.Pos())
	t.add(g.Go, call.Fun.Pos(), h+"(", span)
	sep := ""
	if len(call.Args) > 0 {
		sep = ", "
	}
	t.add(call.Fun.End(), call.Lparen+1, sep, span)
	if call.Ellipsis.IsValid() {
		t.add(call.Ellipsis, call.Ellipsis+3, "", span)
	}
}

// enclosingFunc names the function declaration around the innermost node of
// stack (for the site of a function literal, independent of line numbers).
func (t *transformer) enclosingFunc(stack []ast.Node) string {
	for i := len(stack) - 1; i >= 0; i-- {
		if fd, ok := stack[i].(*ast.FuncDecl); ok {
			if obj, ok := t.p.Info.Defs[fd.Name].(*types.Func); ok {
				return obj.FullName()
			}
			return fd.Name.Name
		}
	}
	return t.p.Types.Path()
}
