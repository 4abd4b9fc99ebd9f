package transform

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// WRITE_OUT: observed code writes a field of an external struct through a
// pointer (`srv.Addr = a`, `srv.Hits++`, `srv.Hits += n`) or a variable of
// another package (`knobs.Verbose = true`). The statement becomes a call of a
// generated helper that records the written value (capture) or checks it
// against the log (replay), then writes it in both. A compound assignment or
// ++/-- reads the old value first, recorded as READ_OUT of the same site (in
// replay the pointer may be a placeholder whose fields mean nothing).

// writeTarget describes an external location written by observed code.
type writeTarget struct {
	name  string     // site name: "(*pkg.T).F" or "pkg.V"
	field *types.Var // the field, or nil for a package variable
	recv  ast.Expr   // the pointer expression (field writes)
	typ   types.Type // the location's type
}

// externalTarget reports whether lhs is a location outside the observed set
// that writes must be recorded for.
func (t *transformer) externalTarget(lhs ast.Expr) (writeTarget, bool) {
	x, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
	if !ok {
		return writeTarget{}, false
	}
	if sel, ok := t.p.Info.Selections[x]; ok {
		if sel.Kind() != types.FieldVal || len(sel.Index()) != 1 {
			return writeTarget{}, false
		}
		xt := t.p.Info.TypeOf(x.X)
		ptr, ok := xt.Underlying().(*types.Pointer)
		if !ok {
			return writeTarget{}, false
		}
		named, ok := types.Unalias(ptr.Elem()).(*types.Named)
		if !ok || named.Obj().Pkg() == nil || t.observed[named.Obj().Pkg().Path()] || memoryHeader(named) {
			return writeTarget{}, false
		}
		f := sel.Obj().(*types.Var)
		return writeTarget{name: "(" + types.TypeString(xt, fullQualifier) + ")." + f.Name(), field: f, recv: x.X, typ: f.Type()}, true
	}
	id, ok := x.X.(*ast.Ident)
	if !ok {
		return writeTarget{}, false
	}
	if _, ok := t.p.Info.Uses[id].(*types.PkgName); !ok {
		return writeTarget{}, false
	}
	v, ok := t.p.Info.Uses[x.Sel].(*types.Var)
	if !ok || v.Pkg() == nil || t.observed[v.Pkg().Path()] {
		return writeTarget{}, false
	}
	return writeTarget{name: v.Pkg().Path() + "." + v.Name(), typ: v.Type()}, true
}

// assignOut instruments an assignment whose left side is external.
func (t *transformer) assignOut(a *ast.AssignStmt, stack []ast.Node) {
	if a.Tok == token.DEFINE {
		return
	}
	for i, l := range a.Lhs {
		w, ok := t.externalTarget(l)
		if !ok {
			continue
		}
		if len(a.Lhs) != 1 || len(a.Rhs) != 1 {
			t.errorf(a.Pos(), "writing "+w.name+" in a tuple assignment", "assign it in a statement of its own (`"+types.ExprString(l)+" = v`)")
			return
		}
		_ = i
		op := ""
		if a.Tok != token.ASSIGN {
			op = strings.TrimSuffix(a.Tok.String(), "=")
		}
		t.writeOut(a, ast.Unparen(l).(*ast.SelectorExpr), w, op, a.Rhs[0], stack)
	}
}

// incDecOut instruments `x.F++` / `pkg.V--` on an external location.
func (t *transformer) incDecOut(s *ast.IncDecStmt, stack []ast.Node) {
	w, ok := t.externalTarget(s.X)
	if !ok {
		return
	}
	op := "+"
	if s.Tok == token.DEC {
		op = "-"
	}
	t.writeOut(s, ast.Unparen(s.X).(*ast.SelectorExpr), w, op, nil, stack)
}

// rangeOut rejects external locations as range variables.
func (t *transformer) rangeOut(r *ast.RangeStmt) {
	if r.Tok != token.ASSIGN {
		return
	}
	for _, e := range []ast.Expr{r.Key, r.Value} {
		if e == nil {
			continue
		}
		if w, ok := t.externalTarget(e); ok {
			t.errorf(r.Pos(), "writing "+w.name+" as a range variable", "range into a local variable and assign it in a statement of its own")
		}
	}
}

// writeOut generates the helper of one write and rewrites the statement:
//
//	x.F = v     -> h(x, v)        pkg.V = v   -> h(&pkg.V, v)
//	x.F op= v   -> h(x, v)        x.F++       -> h(x)
//
// In generic code the helper is generic over the enclosing function's type
// parameters, h[K, V](x, v), as outcalls' helpers are (golang-lru's
// expirable: `ent.Value = value` on an *internal.Entry[K, V]).
func (t *transformer) writeOut(stmt ast.Stmt, lhs *ast.SelectorExpr, w writeTarget, op string, rhs ast.Expr, stack []ast.Node) {
	saved := t.allowTP
	t.allowTP = true
	defer func() { t.allowTP = saved }()
	tpDecl, tpArgs := "", ""
	if hasTypeParam(w.typ) || w.field != nil && hasTypeParam(t.p.Info.TypeOf(w.recv)) || rhs != nil && hasTypeParam(t.p.Info.TypeOf(rhs)) {
		var why string
		tpDecl, tpArgs, why = t.typeParams(t.enclosingTypeParams(stack))
		if why != "" || tpDecl == "" {
			t.errorf(lhs.Pos(), "writing "+w.name+" in generic code whose enclosing function has "+why, "name every type parameter of the enclosing function (no _)")
			return
		}
	}
	fts, why := t.typeString(w.typ)
	if why != "" {
		t.errorf(lhs.Pos(), "writing "+w.name+" of "+why, "write it from an unobserved package")
		return
	}
	var target, recvDecl, direct string
	if w.field != nil {
		rts, why := t.typeString(t.p.Info.TypeOf(w.recv))
		if why != "" {
			t.errorf(lhs.Pos(), "writing "+w.name+" through a pointer of "+why, "write it from an unobserved package")
			return
		}
		recvDecl = "_r " + rts
		target = "_r." + w.field.Name()
	} else {
		recvDecl = "_r *" + fts
		target = "*_r"
	}
	// The operand of a compound assignment: the location's type, except for
	// shifts, whose count has a type of its own.
	vts := fts
	if rhs != nil && (op == "<<" || op == ">>") {
		vt := types.Default(t.p.Info.TypeOf(rhs))
		s, why := t.typeString(vt)
		if why != "" {
			t.errorf(lhs.Pos(), "a shift of "+w.name+" by a value of "+why, "shift a local copy")
			return
		}
		vts = s
	}
	decls := recvDecl
	switch {
	case rhs == nil:
		direct = target + " " + op + op
	case op == "":
		decls += ", v " + vts
		direct = target + " = v"
	default:
		decls += ", v " + vts
		direct = target + " " + op + "= v"
	}
	pos := t.sitePos(lhs.Sel.Pos())
	site := t.siteVar(w.name, pos, false)
	h := strings.Replace(site, "_site_", "_write_", 1)
	var b strings.Builder
	fmt.Fprintf(&b, "// %s writes %s (%s).\n", h, w.name, pos)
	fmt.Fprintf(&b, "func %s%s(%s) {\n\ts := %s.Out(&%s)\n\tif s == nil {\n\t\t%s\n\t\treturn\n\t}\n", h, tpDecl, decls, t.probe, site, direct)
	newVal := "v"
	if op != "" {
		// Read the old value as READ_OUT, then compute the new one.
		fmt.Fprintf(&b, "\tvar old %s\n\tif s.Replaying() {\n\t\ts.Read()\n\t\told = %s\n\t\ts.ReadDone()\n\t} else {\n\t\told = %s\n\t\ts.Reading()\n\t\t%s\n\t\ts.Read()\n\t}\n",
			fts, t.decExpr(w.typ, fts), target, t.encStmt("old", w.typ))
		operand := "v"
		if rhs == nil {
			operand = "1"
		}
		fmt.Fprintf(&b, "\tnv := old %s %s\n", op, operand)
		newVal = "nv"
	}
	stored := newVal
	if _, tp := w.typ.(*types.TypeParam); op == "" && mayHoldFunc(w.typ) && !tp {
		// An observed function value stored where external code can
		// call it (go-toml's unstable fills internal/parserbridge's
		// function variables in its init, and the root package calls
		// them): those calls are recorded, and performed in replay, as
		// callbacks are. Not for a type parameter: boxing its value to
		// ask would cost an allocation per write of every other kind.
		stored = t.probe + ".Stored(" + newVal + ")"
	}
	fmt.Fprintf(&b, "\t%s\n\ts.Write()\n", t.encStmt(newVal, w.typ))
	if w.field != nil {
		// In replay the pointer may be one the code read natively from a
		// placeholder's field (`req.URL.Path = p` on an incall's
		// *http.Request: httprouter), nil there: the write is checked
		// against the log, and replay answers every read of an external
		// field from the log, so there is nothing to write to.
		b.WriteString("\tif _r == nil && s.Replaying() {\n\t\treturn\n\t}\n")
	}
	fmt.Fprintf(&b, "\t%s = %s\n}\n\n", target, stored)
	t.gen.WriteString(b.String())

	span := int(stmt.End() - stmt.Pos())
	h += tpArgs
	if w.field != nil {
		t.add(lhs.Pos(), lhs.Pos(), h+"(", span)
		if rhs == nil {
			t.add(w.recv.End(), stmt.End(), ")", span)
			return
		}
		t.add(w.recv.End(), rhs.Pos(), ", ", span)
	} else {
		t.add(lhs.Pos(), lhs.Pos(), h+"(&", span)
		if rhs == nil {
			t.add(lhs.End(), stmt.End(), ")", span)
			return
		}
		t.add(lhs.End(), rhs.Pos(), ", ", span)
	}
	t.add(rhs.End(), rhs.End(), ")", span)
}
