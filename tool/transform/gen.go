package transform

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"sort"
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

// signatureVars lists the receiver, parameters and results of sig.
func signatureVars(sig *types.Signature) []*types.Var {
	var vs []*types.Var
	if sig.Recv() != nil {
		vs = append(vs, sig.Recv())
	}
	for _, tup := range []*types.Tuple{sig.Params(), sig.Results()} {
		for i := 0; i < tup.Len(); i++ {
			vs = append(vs, tup.At(i))
		}
	}
	return vs
}

// holdsUnsafePointer reports, as a path such as ": field ptr" (empty if
// not), whether a value of type t holds an unsafe.Pointer by value: in
// itself, a struct field, an array, slice or map element. Pointers,
// interfaces, channels and functions are references (recorded by object
// ID), so what they point to does not count.
func holdsUnsafePointer(t types.Type, seen map[types.Type]bool) string {
	if seen[t] {
		return ""
	}
	if seen == nil {
		seen = map[types.Type]bool{}
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Kind() == types.UnsafePointer {
			return ": unsafe.Pointer"
		}
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if via := holdsUnsafePointer(u.Field(i).Type(), seen); via != "" {
				return ": field " + u.Field(i).Name() + strings.TrimPrefix(via, ": unsafe.Pointer")
			}
		}
	case *types.Array:
		return holdsUnsafePointer(u.Elem(), seen)
	case *types.Slice:
		return holdsUnsafePointer(u.Elem(), seen)
	case *types.Map:
		if via := holdsUnsafePointer(u.Key(), seen); via != "" {
			return via
		}
		return holdsUnsafePointer(u.Elem(), seen)
	}
	return ""
}

func isUnsafePointer(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}

// registerSignature registers the concrete types of a boundary signature,
// so that replay can rebuild interface contents of those types.
func (t *transformer) registerSignature(sig *types.Signature) {
	for _, tup := range []*types.Tuple{sig.Params(), sig.Results()} {
		for i := 0; i < tup.Len(); i++ {
			typ := tup.At(i).Type()
			if sig.Variadic() && tup == sig.Params() && i == tup.Len()-1 {
				typ = typ.(*types.Slice).Elem()
			}
			t.placeholder(typ)
			if _, ok := types.Unalias(typ).(*types.Named); ok {
				t.registerType(typ)
			}
			if p, ok := typ.(*types.Pointer); ok {
				if _, ok := types.Unalias(p.Elem()).(*types.Named); ok {
					t.registerType(typ)
				}
			}
		}
	}
}

// placeholder generates, for a non-empty interface type at the boundary, a
// type that stands in for recorded values of it in replay: every call of its
// methods by observed code goes through an outcall helper and is answered
// from the log, so its methods are never run.
func (t *transformer) placeholder(typ types.Type) {
	iface, ok := typ.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 || types.Identical(typ, types.Universe.Lookup("error").Type()) || hasTypeParam(typ) {
		return
	}
	ts, why := t.typeString(typ)
	if why != "" || t.phs[ts] {
		return
	}
	var methods strings.Builder
	name := fmt.Sprintf("_capture_ph_%d", len(t.phs))
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		if !m.Exported() && m.Pkg() != t.p.Types {
			return
		}
		sig := m.Type().(*types.Signature)
		var ps, rs []string
		for j := 0; j < sig.Params().Len(); j++ {
			pt, why := t.typeString(sig.Params().At(j).Type())
			if why != "" {
				return
			}
			if sig.Variadic() && j == sig.Params().Len()-1 {
				pt = "..." + strings.TrimPrefix(pt, "[]")
			}
			ps = append(ps, pt)
		}
		for j := 0; j < sig.Results().Len(); j++ {
			rt, why := t.typeString(sig.Results().At(j).Type())
			if why != "" {
				return
			}
			rs = append(rs, rt)
		}
		fmt.Fprintf(&methods, "func (*%s) %s(%s) %s { panic(%s.PlaceholderCalled) }\n", name, m.Name(), strings.Join(ps, ", "), resultList(rs), t.probe)
	}
	t.phs[ts] = true
	t.phTypes = append(t.phTypes, typ)
	fmt.Fprintf(&t.gen, "// %s stands in for a recorded %s in replay.\ntype %s struct{ _ byte }\n\n%s\n", name, ts, name, methods.String())
	fmt.Fprintf(&t.register, "\t%s.Placeholder[%s](func() %s { return &%s{} })\n", t.probe, ts, ts, name)
}

// funcDecl wraps an exported function or method of the observed package.
func (t *transformer) funcDecl(fd *ast.FuncDecl) {
	if !fd.Name.IsExported() || fd.Body == nil {
		return
	}
	fn, ok := t.p.Info.Defs[fd.Name].(*types.Func)
	if !ok {
		return
	}
	sig := fn.Type().(*types.Signature)
	// Generic code keeps its type parameters (generic.go).
	tps := sig.TypeParams()
	if sig.RecvTypeParams() != nil {
		tps = sig.RecvTypeParams()
	}
	tpDecl, tpArgs, why := t.typeParams(tps)
	if why != "" {
		t.errorf(fd.Pos(), "an exported generic function or method with "+why, "name every type parameter (no _) and use constraints the package can name")
		return
	}
	generic := tpDecl != ""
	if generic {
		t.allowTP = true
		defer func() { t.allowTP = false }()
	}
	fnTP, fnTA := tpDecl, tpArgs // on the function itself; a method's are on its receiver
	pos := t.sitePos(fd.Name.Pos())
	name := t.p.Types.Path() + "." + fd.Name.Name
	recvDecl, callee, recvTS := "", "_capture_"+fd.Name.Name+fnTA, ""
	recvName := ""
	for _, v := range signatureVars(sig) {
		if via := holdsUnsafePointer(v.Type(), nil); via != "" {
			// Replay rebuilds such values from their recorded contents,
			// but cannot rebuild the memory they point into, and its
			// numbering of those pointers differs (study, go-cmp
			// cmp/internal/value: value.PointerOf, SortKeys([]reflect.Value)).
			t.errorf(fd.Pos(), "an exported function whose signature holds an unsafe.Pointer by value ("+types.TypeString(v.Type(), fullQualifier)+via+")",
				"keep reflect.Value and unsafe.Pointer off the observed set's exported API (pass the underlying values), or keep this package out of the observed set")
			return
		}
		if r := mentionsReflect(v.Type(), t.p.Types, map[types.Type]bool{}); r != "" && t.nativeReflect() {
			// The package's reflection runs natively, over owned values only
			// (reflect.go): one from outside would be a placeholder in replay.
			t.errorf(fd.Pos(), "an exported function whose signature holds a "+r+" ("+types.TypeString(v.Type(), fullQualifier)+")",
				"keep reflect.Value and reflect.Type off the observed set's exported API (pass the underlying values), or keep this package out of the observed set")
			return
		}
	}
	if sig.Recv() != nil {
		fnTP, fnTA = "", ""
		ts, why := t.typeString(sig.Recv().Type())
		if why != "" {
			t.errorf(fd.Pos(), "a method whose receiver is a "+why, "keep the type out of the observed set")
			return
		}
		recvTS = ts
		recvDecl = "(_r " + ts + ") "
		callee = "_r._capture_" + fd.Name.Name
		name = "(" + types.TypeString(sig.Recv().Type(), fullQualifier) + ")." + fd.Name.Name
		rt := sig.Recv().Type()
		if p, ok := rt.(*types.Pointer); ok {
			rt = p.Elem()
		}
		if n, ok := types.Unalias(rt).(*types.Named); ok {
			recvName = n.Obj().Name()
		}
	}
	var decls, args, encs, decs, dargs []string
	for i := 0; i < sig.Params().Len(); i++ {
		pt := sig.Params().At(i).Type()
		if isUnsafePointer(pt) {
			t.errorf(fd.Pos(), "an exported function with an unsafe.Pointer parameter", "keep unsafe.Pointer off the observed set's exported API")
			return
		}
		ts, why := t.typeString(pt)
		if why != "" {
			t.errorf(fd.Pos(), "an exported function with a parameter of "+why, "use types the package can name")
			return
		}
		pn := fmt.Sprintf("p%d", i)
		if sig.Variadic() && i == sig.Params().Len()-1 {
			decls = append(decls, pn+" ..."+strings.TrimPrefix(ts, "[]"))
			args = append(args, pn+"...")
		} else {
			decls = append(decls, pn+" "+ts)
			args = append(args, pn)
		}
		pv := sig.Params().At(i).Name()
		encs = append(encs, t.paramEncStmt(pn, pt, pv, name, t.redact.params[fd][pv]))
		decs = append(decs, pn+" := "+t.decExpr(pt, ts))
		dargs = append(dargs, args[len(args)-1])
	}
	var results, rnames, rencs []string
	for i := 0; i < sig.Results().Len(); i++ {
		rt := sig.Results().At(i).Type()
		if isUnsafePointer(rt) {
			t.errorf(fd.Pos(), "an exported function with an unsafe.Pointer result", "keep unsafe.Pointer off the observed set's exported API")
			return
		}
		ts, why := t.typeString(rt)
		if why != "" {
			t.errorf(fd.Pos(), "an exported function with a result of "+why, "use types the package can name")
			return
		}
		results = append(results, ts)
		rn := fmt.Sprintf("r%d", i)
		rnames = append(rnames, rn)
		rencs = append(rencs, t.paramEncStmt(rn, rt, "", name, false))
	}
	hook := ""
	if generic {
		hook = instanceHook(recvName, fd.Name.Name)
		if t.taken[hook] {
			t.errorf(fd.Pos(), "a generic function or method whose replay hook "+hook+" clashes with a declaration of the package", "rename the declaration "+hook)
			return
		}
		t.taken[hook] = true
	}
	t.registerSignature(sig)
	siteName := name
	if generic && sig.Recv() == nil {
		siteName += strings.ReplaceAll(tpArgs, " ", "")
	}
	site := t.siteVar(siteName, pos, false)
	inv := strings.Replace(site, "_site_", "_invoke_", 1)

	// Rename the original in place.
	t.add(fd.Name.Pos(), fd.Name.End(), "_capture_"+fd.Name.Name, 0)

	var b strings.Builder
	slow := strings.Replace(site, "_site_", "_in_", 1)
	direct := callee + "(" + strings.Join(args, ", ") + ")"
	ret := "return "
	if len(results) == 0 {
		ret = ""
	}
	// The exported function stays small enough to inline (one call: the
	// compiler's budget allows no second one): with capture off it costs a
	// load and a branch. The recording path checks for a call from inside
	// the observed set.
	fmt.Fprintf(&b, "// %s records calls of %s into the observed set (%s).\n", fd.Name.Name, name, pos)
	fmt.Fprintf(&b, "func %s%s%s(%s) %s {\n", recvDecl, fd.Name.Name, fnTP, strings.Join(decls, ", "), resultList(results))
	slowArgs, slowDecls, original := args, decls, callee
	if recvDecl != "" {
		slowArgs = append([]string{"_r"}, args...)
		slowDecls = append([]string{"_r " + recvTS}, decls...)
		original = methodExpr(recvTS, "_capture_"+fd.Name.Name)
	}
	fmt.Fprintf(&b, "\tcall := %s\n\tif %s.On() {\n\t\tcall = %s%s\n\t}\n", original, t.probe, slow, tpArgs)
	fmt.Fprintf(&b, "\t%scall(%s)\n}\n\n", ret, strings.Join(slowArgs, ", "))

	fmt.Fprintf(&b, "// %s records one incall of %s: CALL_IN, then RETURN_IN or PANIC_OUT.\n", slow, name)
	fmt.Fprintf(&b, "func %s%s(%s) %s {\n", slow, tpDecl, strings.Join(slowDecls, ", "), resultList(results))
	fmt.Fprintf(&b, "\ts := %s.In(&%s)\n\tif s == nil { // called from observed code\n", t.probe, site)
	if len(results) > 0 {
		fmt.Fprintf(&b, "\t\treturn %s\n\t}\n", direct)
	} else {
		fmt.Fprintf(&b, "\t\t%s\n\t\treturn\n\t}\n", direct)
	}
	inst := strings.Replace(site, "_site_", "_inst_", 1)
	if generic {
		fmt.Fprintf(&b, "\ts.Instance(%s%s())\n", inst, tpArgs)
	}
	if recvDecl != "" {
		fmt.Fprintf(&b, "\t%s.Recv(s, _r)\n", t.probe)
	}
	for _, e := range encs {
		b.WriteString("\t" + e + "\n")
	}
	b.WriteString("\tf := s.Call()\n")
	runCall(&b, direct, rnames, results)
	for _, e := range rencs {
		b.WriteString("\t" + e + "\n")
	}
	b.WriteString("\ts.Return(f)\n")
	if len(results) > 0 {
		b.WriteString("\treturn " + strings.Join(rnames, ", ") + "\n")
	}
	b.WriteString("}\n\n")

	// The invoker: replay's driver performs a recorded incall through it.
	fmt.Fprintf(&b, "// %s performs a recorded call of %s in replay.\n", inv, name)
	fmt.Fprintf(&b, "func %s%s(s *%s.Stream) {\n", inv, tpDecl, t.probe)
	target := fd.Name.Name + fnTA
	if recvDecl != "" {
		fmt.Fprintf(&b, "\t_r := %s.Decode[%s](s)\n", t.probe, recvTS)
		target = "_r." + fd.Name.Name
	}
	for _, d := range decs {
		b.WriteString("\t" + d + "\n")
	}
	fmt.Fprintf(&b, "\tif s.Args() {\n\t\t%s(%s)\n\t}\n}\n\n", target, strings.Join(dargs, ", "))
	if generic {
		// One site per instantiation, registered on first use.
		prefix, suffix := name, ""
		if sig.Recv() != nil {
			i := strings.Index(name, "[")
			j := strings.LastIndex(name, ").")
			prefix, suffix = name[:i], name[j:]
		}
		gv := strings.Replace(site, "_site_", "_generic_", 1)
		fmt.Fprintf(&b, "var %s = %s.Generic{Prefix: %q, Suffix: %q, Pos: %q}\n\n", gv, t.probe, prefix, suffix, pos)
		var targs []string
		for i := 0; i < tps.Len(); i++ {
			targs = append(targs, t.probe+".TypeArg["+tps.At(i).Obj().Name()+"]()")
		}
		instName := name
		if sig.Recv() == nil {
			instName += tpArgs
		}
		fmt.Fprintf(&b, "// %s is the site of the instantiation %s.\n", inst, instName)
		fmt.Fprintf(&b, "func %s%s() *%s.Site {\n\treturn %s.Instance(&%s, %s%s, %s)\n}\n\n", inst, tpDecl, t.probe, t.probe, gv, inv, tpArgs, strings.Join(targs, ", "))
		fmt.Fprintf(&b, "// %s makes the instantiation %s known to replay:\n// the replay harness calls it with the type arguments its logs name.\n", hook, instName)
		fmt.Fprintf(&b, "func %s%s() { %s%s() }\n\n", hook, tpDecl, inst, tpArgs)
	}
	t.gen.WriteString(b.String())
	if !generic {
		fmt.Fprintf(&t.inits, "\t%s.Invoke = %s\n\t%s.Incall(&%s)\n", site, inv, t.probe, site)
	}
}

// methodExpr is the method expression of method m of receiver type recv:
// T.m, (*T).m.
func methodExpr(recv, m string) string {
	if strings.HasPrefix(recv, "*") {
		return "(" + recv + ")." + m
	}
	return recv + "." + m
}

// initMarkers brackets the package's initialisation with BeginInit (first
// variable in declaration order) and EndInit (last init function).
func (t *transformer) initMarkers() {
	first := t.p.Files[0]
	tf := t.p.Fset.File(first.Pos())
	var at token.Pos
	for _, d := range first.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			continue
		}
		at = d.Pos()
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
			at = fd.Doc.Pos()
		}
		if gd, ok := d.(*ast.GenDecl); ok && gd.Doc != nil {
			at = gd.Doc.Pos()
		}
		break
	}
	if at.IsValid() {
		line := tf.Line(at)
		start := tf.LineStart(line)
		t.edits[0] = append(t.edits[0], edit{start: t.offset(start), end: t.offset(start),
			// The blank line keeps the directive out of the next doc comment.
			text: fmt.Sprintf("var _capture_init = _capture_begin_init()\n\n//line %s:%d\n\n", t.names[0], line-1), span: 1 << 30})
	} else {
		n := len(t.srcs[0])
		t.edits[0] = append(t.edits[0], edit{start: n, end: n, text: "\nvar _capture_init = _capture_begin_init()\n", span: 1 << 30})
	}
	// EndInit must come after every init function of the package, in
	// whatever order the build presents the files to the compiler (go build
	// sorts them by name, a Bazel rule need not, and a file may sort after
	// zz_capture_gen.go): each file that declares init functions ends with
	// one more, and so does the generated file; the last of them to run
	// ends the initialisation (pflag's EndInit ran in uint_slice.go, before
	// the generated file's init; corpus pkgvars' late.go).
	for i, f := range t.p.Files {
		if !declaresInit(f) {
			continue
		}
		n := len(t.srcs[i])
		t.edits[i] = append(t.edits[i], edit{start: n, end: n, text: "\nfunc init() { _capture_end_init() }\n", span: 1 << 30})
		t.initFiles++
	}
}

// declaresInit reports whether f declares an init function.
func declaresInit(f *ast.File) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
			return true
		}
	}
	return false
}

// generated assembles the generated file.
func (t *transformer) generated() ([]byte, error) {
	// Stand-ins for interface-typed fields of exported variables' types: a
	// WRITE_IN may hold a new object whose field has a dynamic type replay
	// cannot name (pflag's CommandLine.output = ioutil.Discard). Before
	// register and gen are emitted.
	for _, name := range t.p.Types.Scope().Names() {
		if v, ok := t.p.Types.Scope().Lookup(name).(*types.Var); ok && v.Exported() {
			typ := v.Type()
			if p, ok := typ.Underlying().(*types.Pointer); ok {
				typ = p.Elem()
			}
			if st, ok := typ.Underlying().(*types.Struct); ok {
				for i := 0; i < st.NumFields(); i++ {
					t.placeholder(st.Field(i).Type())
				}
			}
		}
		// And for interface-typed exported fields of the package's struct
		// types: external code may set them (a WRITE_IN of the field; corpus
		// fields) to a value whose type replay cannot name.
		if tn, ok := t.p.Types.Scope().Lookup(name).(*types.TypeName); ok && !tn.IsAlias() {
			if st, ok := tn.Type().Underlying().(*types.Struct); ok {
				for i := 0; i < st.NumFields(); i++ {
					if st.Field(i).Exported() {
						t.placeholder(st.Field(i).Type())
					}
				}
			}
		}
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by rules_capture (tool/transform) from package " + t.p.Types.Path() + ". DO NOT EDIT.\n\n")
	b.WriteString("package " + t.p.Types.Name() + "\n\n")
	paths := make([]string, 0, len(t.imports))
	for p := range t.imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	// Only the imports the emitted code uses (an abandoned placeholder may
	// have named a package that nothing else does).
	body := t.register.String() + t.gen.String()
	b.WriteString("import (\n")
	for _, p := range paths {
		if a := t.imports[p]; a == t.probe || strings.Contains(body, a+".") {
			fmt.Fprintf(&b, "\t%s %q\n", a, p)
		}
	}
	b.WriteString(")\n\n")
	fmt.Fprintf(&b, "// _capture_begin_init registers the package with the runtime and starts\n// recording its initialisation (stream 0).\nfunc _capture_begin_init() struct{} {\n\t%s.Package(%q)\n", t.probe, t.p.Types.Path())
	b.Write(t.register.Bytes())
	fmt.Fprintf(&b, "\treturn %s.BeginInit()\n}\n\n", t.probe)
	if t.initFiles > 0 {
		fmt.Fprintf(&b, "// _capture_inits counts the calls of _capture_end_init: one at the end of\n// each file with init functions (%d) and one from this file's init.\nvar _capture_inits int\n\n", t.initFiles)
	}
	b.WriteString("// _capture_end_init ends the recording of the package's initialisation, after\n// its last init function, and registers its exported sentinel errors, now\n// initialised.\nfunc _capture_end_init() {\n")
	if t.initFiles > 0 {
		fmt.Fprintf(&b, "\tif _capture_inits++; _capture_inits <= %d {\n\t\treturn // not the last init function to run\n\t}\n", t.initFiles)
	}
	scope := t.p.Types.Scope()
	for _, n := range scope.Names() {
		if v, ok := scope.Lookup(n).(*types.Var); ok && v.Exported() && types.Identical(v.Type(), types.Universe.Lookup("error").Type()) {
			fmt.Fprintf(&b, "\t%s.Sentinel(%q, %s)\n", t.probe, t.p.Types.Path()+"."+n, n)
		}
	}
	fmt.Fprintf(&b, "\t%s.EndInit()\n}\n\n", t.probe)
	b.Write(t.gen.Bytes())
	// Exported variables external code may set between incalls (WRITE_IN).
	var watch strings.Builder
	n := 0
	for _, name := range scope.Names() {
		v, ok := scope.Lookup(name).(*types.Var)
		if !ok || !v.Exported() {
			continue
		}
		ts, why := t.typeString(v.Type())
		if why != "" {
			continue
		}
		vv := fmt.Sprintf("_capture_var_%d", n)
		n++
		fmt.Fprintf(&b, "var %s = %s.Var{Name: %q}\n\n", vv, t.probe, t.p.Types.Path()+"."+name)
		fmt.Fprintf(&watch, "\t%s.Enc = func(s *%s.Stream) { %s }\n", vv, t.probe, t.encStmt(name, v.Type()))
		fmt.Fprintf(&watch, "\t%s.Dec = func(s *%s.Stream) { %s = %s }\n", vv, t.probe, name, t.decExpr(v.Type(), ts))
		fmt.Fprintf(&watch, "\t%s.WatchAt(&%s, &%s)\n", t.probe, vv, name)
	}
	if watch.Len() > 0 {
		// Registered by a variable initialiser: they all run before any init
		// function, so the variables are watched when EndInit takes their
		// baseline; the function refers to the variables, so Go initialises
		// them first.
		b.WriteString("var _capture_watching = _capture_watch()\n\n")
		fmt.Fprintf(&b, "// _capture_watch registers the exported variables external code may set.\nfunc _capture_watch() struct{} {\n%s\treturn struct{}{}\n}\n\n", watch.String())
	}
	b.WriteString("func init() {\n")
	b.Write(t.inits.Bytes())
	b.WriteString("\t_capture_end_init()\n")
	b.WriteString("}\n")
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("transform: generated file does not parse (internal error): %w\n%s", err, b.Bytes())
	}
	return out, nil
}

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
