package transform

import (
	"go/ast"
	"go/types"
	"strings"
)

// rangeFunc routes a range over a function value (`for x := range it`, an
// iter.Seq from outside) through an outcall helper. The loop calls the
// iterator with the loop body as its yield function: when the iterator is
// external code, that call is an outcall, and each yield is a callback of
// the body. Left native, the iterator ran unrecorded in capture, and in
// replay the loop called the log's stand-in for it ("observed code called
// a function value from the log"; sahilm/fuzzy's FindFromIter).
//
// The range expression becomes h(it), where h returns a function of the
// iterator's own signature that makes the call as any call of a function
// value is made: native when the iterator is observed code (the package's
// own iterators), else recorded with the yield function as a callback
// (capture) or answered from the log, the recorded yields performed on the
// loop body (replay).
func (t *transformer) rangeFunc(r *ast.RangeStmt, stack []ast.Node) {
	if _, lit := ast.Unparen(r.X).(*ast.FuncLit); lit {
		return // an iterator written in place: observed code
	}
	if _, ok := t.p.Info.TypeOf(r.X).Underlying().(*types.Signature); !ok {
		return
	}
	// The call the loop makes, it(yield), as a call with its argument
	// supplied by the range statement: the helper's curried form takes the
	// function value and returns the function the loop calls.
	call := &ast.CallExpr{Fun: r.X, Lparen: r.X.End(), Rparen: r.X.End()}
	c := callee{name: "range over func value " + types.ExprString(r.X), funcValue: true}
	saved := t.allowTP
	t.allowTP = true
	defer func() { t.allowTP = saved }()
	o, ok := t.outcallSignature(call, c)
	if !ok {
		return
	}
	o.curried = true
	o.pos = t.sitePos(r.X.Pos())
	if !t.outcallCallee(o) || !t.outcallParams(o, stack) || !t.outcallResults(o) || !t.outcallTypeParams(o, stack) {
		return
	}
	site := t.siteVar(o.c.name, o.pos, false)
	h := strings.Replace(site, "_site_", "_out_", 1)
	t.registerSignature(o.sig)
	t.gen.WriteString(t.outcallHelperText(o, site, h))
	span := int(r.X.End()-r.X.Pos()) + 1 // around any rewrite of the expression itself
	t.add(r.X.Pos(), r.X.Pos(), h+o.tpArgs+"(", span)
	t.add(r.X.End(), r.X.End(), ")", span)
}
