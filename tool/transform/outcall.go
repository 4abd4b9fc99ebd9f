package transform

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
	"strings"
)

// outcall routes a call of external code through a generated helper.
func (t *transformer) outcall(call *ast.CallExpr, c callee, stack []ast.Node) {
	info := t.p.Info
	if c.fn == nil && !c.funcValue {
		return
	}
	// In generic code the helper may name the enclosing type parameters.
	saved := t.allowTP
	t.allowTP = true
	defer func() { t.allowTP = saved }()
	usesTP := false
	if c.iface && c.fn.Name() == "Error" && c.sel != nil && types.Identical(c.sel.Recv(), types.Universe.Lookup("error").Type()) {
		return // err.Error(): recorded errors replay with the same message
	}
	// Underlying: a function value of a named function type
	// (context.CancelFunc, http.HandlerFunc, go-cmp's diff.EqualFunc) is
	// called like any other: taking only unnamed signatures left such calls
	// unrecorded.
	sig, ok := info.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok {
		return
	}
	// f(g()) with a multi-value g: the helper returns the function to call,
	// h(f)(g()), so the call keeps its single multi-value argument.
	curried := false
	if len(call.Args) == 1 {
		if tup, ok := info.TypeOf(call.Args[0]).(*types.Tuple); ok && tup.Len() > 1 {
			curried = true
		}
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if isUnsafePointer(sig.Params().At(i).Type()) {
			t.errorf(call.Pos(), "passing unsafe.Pointer across the boundary ("+c.name+")", "move the unsafe code into an unobserved package")
			return
		}
	}
	if !t.promotedCallbacks(call, sig, c.name) {
		return
	}
	pos := t.sitePos(call.Lparen)
	var recvDecl, callee string
	var recvEnc string
	editStart := call.Fun.Pos()
	prefix := ""
	fieldPath := ""
	if c.sel != nil {
		// Method call: the receiver becomes the helper's first argument.
		fp, typ, promoted, why := t.promotedRecv(info.TypeOf(c.recvX), c.sel.Index(), c.fn) // promoted.go
		if why != "" {
			t.errorf(call.Pos(), why, "call the method on the embedded field explicitly")
			return
		}
		fieldPath = fp
		msig := c.fn.Type().(*types.Signature)
		if _, ptrRecv := msig.Recv().Type().(*types.Pointer); ptrRecv && !types.IsInterface(typ) {
			// From a value the method is promoted from, its address only
			// when the method is not promoted through an embedded pointer.
			if _, isPtr := typ.Underlying().(*types.Pointer); !isPtr && (!promoted || types.NewMethodSet(typ).Lookup(c.fn.Pkg(), c.fn.Name()) == nil) {
				typ = types.NewPointer(typ)
				prefix = "&"
			}
		}
		ts, why := t.typeString(typ)
		if why != "" {
			t.errorf(call.Pos(), "a method call on a value of "+why+" ("+c.name+")", "call it from an unobserved package, or keep this package out of the observed set")
			return
		}
		usesTP = hasTypeParam(typ)
		recvDecl = "_r " + ts
		callee = "_r." + c.fn.Name()
		recvEnc = t.probe + ".Recv(s, _r)"
		editStart = c.recvX.Pos()
		c.iface = types.IsInterface(typ)
	} else {
		ts, why := t.typeString(info.TypeOf(call.Fun)) // a named function type keeps its name (context.CancelFunc)
		if why != "" {
			t.errorf(call.Pos(), "an outcall involving "+why+" ("+c.name+")", "call it from an unobserved package and pass plain values in")
			return
		}
		recvDecl = "fn " + ts
		callee = "fn"
	}
	// Parameters and results of the helper.
	decls := []string{recvDecl}
	var args []string
	var encs []string
	// Out-parameters: slices the callee may write; their contents after the
	// call are recorded with the results and written back in replay. For a
	// Read-like call (first result n int) only p[:n] is.
	readLike := c.fn != nil && sig.Results().Len() > 0 && isInt(sig.Results().At(0).Type()) &&
		(c.fn.Name() == "Read" || c.fn.Name() == "ReadAt" || c.fn.Name() == "ReadFull" || c.fn.Name() == "ReadAtLeast")
	var outEncs, outDecs, cbs []string
	var ptrOut map[int][]int // out-parameters through pointers (outparam.go)
	if !curried {
		ptrOut = t.outParams(call, sig, stack)
	}
	for i := 0; i < sig.Params().Len(); i++ {
		pt := sig.Params().At(i).Type()
		name := fmt.Sprintf("p%d", i)
		ts, why := t.typeString(pt)
		if why != "" {
			t.errorf(call.Pos(), "an outcall with a parameter of "+why+" ("+c.name+")", "call it from an unobserved package")
			return
		}
		variadic := sig.Variadic() && i == sig.Params().Len()-1
		if variadic {
			decls = append(decls, name+" ..."+strings.TrimPrefix(ts, "[]"))
			args = append(args, name+"...")
		} else {
			decls = append(decls, name+" "+ts)
			args = append(args, name)
		}
		_, isSlice := pt.Underlying().(*types.Slice)
		switch {
		case isSlice && !variadic && isByteSlice(pt) && readLike:
			encs = append(encs, "s.Int(int64(len("+name+")))")
			outEncs = append(outEncs, "s.Bytes("+name+"[:min(max(r0, 0), len("+name+"))])")
			outDecs = append(outDecs, "copy("+name+", s.DecodeBytes())")
		case isSlice && !variadic && isByteSlice(pt):
			encs = append(encs, t.paramEncStmt(name, pt, sig.Params().At(i).Name(), c.name, false))
			outEncs = append(outEncs, "s.Bytes("+name+")")
			outDecs = append(outDecs, "copy("+name+", s.DecodeBytes())")
		case isSlice && !variadic:
			encs = append(encs, t.encStmt(name, pt))
			outEncs = append(outEncs, t.probe+".Encode(s, "+name+")")
			outDecs = append(outDecs, "copy("+name+", "+t.probe+".Decode["+ts+"](s))")
		default:
			encs = append(encs, t.paramEncStmt(name, pt, sig.Params().At(i).Name(), c.name, false))
		}
		for _, k := range ptrOut[i] {
			arg := name
			if k >= 0 {
				arg = fmt.Sprintf("%s[%d]", name, k)
			}
			outEncs = append(outEncs, t.probe+".Pointee(s, "+arg+")")
			outDecs = append(outDecs, t.probe+".SetPointee(s, "+arg+")")
		}
		if !variadic && mayHoldFunc(pt) {
			// An observed function value handed to external code may be
			// called back: record those calls (capture), perform them (replay).
			cbs = append(cbs, name+" = "+t.probe+".Callback("+name+")")
		}
	}
	var results, rnames, rencs, rdecs []string
	for i := 0; i < sig.Results().Len(); i++ {
		rt := sig.Results().At(i).Type()
		ts, why := t.typeString(rt)
		if why != "" {
			t.errorf(call.Pos(), "an outcall with a result of "+why+" ("+c.name+")", "call it from an unobserved package")
			return
		}
		rn := fmt.Sprintf("r%d", i)
		results = append(results, ts)
		rnames = append(rnames, rn)
		rencs = append(rencs, t.paramEncStmt(rn, rt, "", c.name, false))
		rdecs = append(rdecs, rn+" := "+t.decExpr(rt, ts))
	}
	rencs = append(rencs, outEncs...)
	rdecs = append(rdecs, outDecs...)
	tpDecl, tpArgs := "", ""
	if usesTP || hasTypeParam(sig) {
		// Generic over the enclosing function's type parameters.
		var why string
		tpDecl, tpArgs, why = t.typeParams(t.enclosingTypeParams(stack))
		if why != "" || tpDecl == "" {
			t.errorf(call.Pos(), "an outcall in generic code ("+c.name+") whose enclosing function has "+why, "name every type parameter of the enclosing function (no _)")
			return
		}
	}
	site := t.siteVar(c.name, pos, exitFuncs[c.name])
	h := strings.Replace(site, "_site_", "_out_", 1)
	t.registerSignature(sig)

	var b strings.Builder
	fmt.Fprintf(&b, "// %s calls %s (%s).\n", h, c.name, pos)
	if curried {
		inner := "func(" + strings.Join(decls[1:], ", ") + ") " + resultList(results)
		fmt.Fprintf(&b, "func %s%s(%s) %s {\n\treturn %s {\n", h, tpDecl, decls[0], inner, inner)
	} else {
		fmt.Fprintf(&b, "func %s%s(%s) %s {\n", h, tpDecl, strings.Join(decls, ", "), resultList(results))
	}
	direct := callee + "(" + strings.Join(args, ", ") + ")"
	native := direct
	if c.sel != nil && !c.iface && syncPointer(info.TypeOf(c.recvX)) {
		if h := t.lockHelper(c.fn); h != "" {
			// A lock that did not cross: acquired at its turn (lockturns.go).
			native = h + "(&" + t.siteVar(types.ExprString(call.Fun), pos, false) + ", _r)"
		}
	}
	ret := "return "
	if len(results) == 0 {
		ret = ""
	}
	cond := "s == nil"
	if c.iface {
		// A method promoted from an embedded external type is external
		// code even on an observed type (typeident.go).
		cond += " || " + t.probe + ".ObservedMethod(_r, " + strconv.Quote(c.fn.Name()) + ")"
	}
	if c.funcValue {
		cond += " || " + t.probe + ".ObservedFunc(fn)"
	}
	if c.sel != nil && !c.iface && syncPointer(info.TypeOf(c.recvX)) {
		// wg.Done() on a *sync.WaitGroup parameter: native unless the
		// object crossed the boundary (runtime/probe/syncobj.go).
		cond += " || " + t.probe + ".Private(_r)"
	}
	fmt.Fprintf(&b, "\ts := %s.Out(&%s)\n\tif %s {\n\t\t%s%s\n", t.probe, site, cond, ret, native)
	if len(results) == 0 {
		b.WriteString("\t\treturn\n")
	}
	b.WriteString("\t}\n")
	if c.sel != nil {
		b.WriteString("\t" + recvEnc + "\n")
	}
	if c.funcValue {
		b.WriteString("\t" + t.probe + ".Recv(s, fn)\n")
	}
	for _, e := range encs {
		b.WriteString("\t" + e + "\n")
	}
	for _, c := range cbs {
		b.WriteString("\t" + c + "\n")
	}
	b.WriteString("\tf := s.Call()\n\tif s.Replaying() {\n\t\ts.Answer(f)\n")
	for _, d := range rdecs {
		b.WriteString("\t\t" + d + "\n")
	}
	b.WriteString("\t\ts.Done(f)\n")
	b.WriteString("\t\treturn " + strings.Join(rnames, ", ") + "\n\t}\n")
	runCall(&b, direct, rnames, results)
	for _, e := range rencs {
		b.WriteString("\t" + e + "\n")
	}
	b.WriteString("\ts.Return(f)\n")
	if len(results) > 0 {
		b.WriteString("\treturn " + strings.Join(rnames, ", ") + "\n")
	}
	if curried {
		b.WriteString("}\n")
	}
	b.WriteString("}\n\n")
	t.gen.WriteString(b.String())

	// Rewrite the call site: f(a) -> h(f, a); x.M(a) -> h(x, a);
	// f(g()) -> h(f)(g()); x.M(g()) -> h(x)(g()).
	span := int(call.End() - call.Pos())
	t.add(editStart, editStart, h+tpArgs+"("+prefix, span)
	if curried {
		if c.sel != nil {
			t.add(c.recvX.End(), call.Lparen, fieldPath+")", span)
		} else {
			t.add(call.Fun.End(), call.Fun.End(), ")", span)
		}
		return
	}
	sep := ""
	if len(call.Args) > 0 {
		sep = ", "
	}
	if c.sel != nil {
		t.add(c.recvX.End(), call.Lparen+1, fieldPath+sep, span)
	} else {
		t.add(call.Fun.End(), call.Lparen+1, sep, span)
	}
}

// runCall writes the recorded call of a wrapper: direct, the boundary call,
// run by Stream.Run, which records a panic that ends it and raises it again
// from outside any deferred call (TestDeepPanicIsNotNested), its results
// rnames (of types results) declared before.
func runCall(b *strings.Builder, direct string, rnames, results []string) {
	switch len(rnames) {
	case 0:
		fmt.Fprintf(b, "\ts.Run(f, func() { %s })\n", direct)
		return
	case 1:
		fmt.Fprintf(b, "\tvar %s %s\n", rnames[0], results[0])
	default:
		b.WriteString("\tvar (\n")
		for i, rn := range rnames {
			fmt.Fprintf(b, "\t\t%s %s\n", rn, results[i])
		}
		b.WriteString("\t)\n")
	}
	fmt.Fprintf(b, "\ts.Run(f, func() { %s = %s })\n", strings.Join(rnames, ", "), direct)
}

// syncPointer: a pointer to a type of package sync or sync/atomic. Its
// methods are decided at run time (probe.Private), and it is never an
// out-parameter: its state is not data, and writing it back could unlock it.
func syncPointer(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	path := n.Obj().Pkg().Path()
	return path == "sync" || path == "sync/atomic"
}

// mayHoldFunc reports whether a value of type t may be a function value
// that external code calls back: a function or an interface.
func mayHoldFunc(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Signature, *types.Interface:
		return true
	}
	return false
}

func isInt(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Kind() == types.Int
}

func isByteSlice(t types.Type) bool {
	sl, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := sl.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

func resultList(rs []string) string {
	switch len(rs) {
	case 0:
		return ""
	case 1:
		return rs[0]
	}
	return "(" + strings.Join(rs, ", ") + ")"
}

func isUnsafePointer(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}
