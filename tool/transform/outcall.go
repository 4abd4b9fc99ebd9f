package transform

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// outcallHelper is the generated helper of one outcall, described step by
// step before it is written: the callee (a method's receiver or a function
// value) as its first parameter, then the call's parameters and results,
// and the type parameters it shares with the enclosing generic function.
type outcallHelper struct {
	call *ast.CallExpr
	c    callee
	sig  *types.Signature
	// curried: f(g()) with a multi-value g, so the helper returns the
	// function to call, h(f)(g()), and the call keeps its single argument.
	curried bool
	pos     string // the call's site position
	usesTP  bool   // the receiver's type names a type parameter
	// inferred: a generic function whose type arguments the call leaves
	// (some of them) to inference, called by the helper instantiated
	// explicitly (inferredCallee): the helper has no callee parameter, and
	// the call site drops the function's expression.
	inferred bool

	// The callee.
	recvDecl  string    // the helper's first parameter
	callee    string    // the expression the helper calls
	recvEnc   string    // records a method's receiver
	editStart token.Pos // where the call site's rewrite begins
	prefix    string    // "&" when a method needs its receiver's address
	fieldPath string    // the embedded fields a promoted method is reached through

	// Parameters.
	decls, args, encs []string
	// Out-parameters: slices the callee may write; their contents after
	// the call are recorded with the results and written back in replay.
	outEncs, outDecs []string
	cbs              []string // function values external code may call back

	// Results.
	results, rnames, rencs, rdecs []string

	tpDecl, tpArgs string // the enclosing type parameters, declared and passed
}

// outcall routes a call of external code through a generated helper.
func (t *transformer) outcall(call *ast.CallExpr, c callee, stack []ast.Node) {
	if c.fn == nil && !c.funcValue {
		return
	}
	// In generic code the helper may name the enclosing type parameters.
	saved := t.allowTP
	t.allowTP = true
	defer func() { t.allowTP = saved }()
	o, ok := t.outcallSignature(call, c)
	if !ok {
		return
	}
	o.pos = t.sitePos(call.Lparen)
	if !t.outcallCallee(o) || !t.outcallParams(o, stack) || !t.outcallResults(o) || !t.outcallTypeParams(o, stack) {
		return
	}
	site := t.siteVar(o.c.name, o.pos, exitFuncs[o.c.name])
	h := strings.Replace(site, "_site_", "_out_", 1)
	t.registerSignature(o.sig)
	t.gen.WriteString(t.outcallHelperText(o, site, h))
	t.rewriteOutcall(o, h)
}

// outcallSignature takes the signature of the called function and checks
// that the call may cross the boundary at all.
func (t *transformer) outcallSignature(call *ast.CallExpr, c callee) (*outcallHelper, bool) {
	info := t.p.Info
	if c.iface && c.fn.Name() == "Error" && c.sel != nil && types.Identical(c.sel.Recv(), types.Universe.Lookup("error").Type()) {
		return nil, false // err.Error(): recorded errors replay with the same message
	}
	// Underlying: a function value of a named function type
	// (context.CancelFunc, http.HandlerFunc, go-cmp's diff.EqualFunc) is
	// called like any other: taking only unnamed signatures left such calls
	// unrecorded.
	sig, ok := info.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok {
		return nil, false
	}
	o := &outcallHelper{call: call, c: c, sig: sig}
	if len(call.Args) == 1 {
		if tup, ok := info.TypeOf(call.Args[0]).(*types.Tuple); ok && tup.Len() > 1 {
			o.curried = true
		}
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if isUnsafePointer(sig.Params().At(i).Type()) {
			t.errorf(call.Pos(), "passing unsafe.Pointer across the boundary ("+c.name+")", "move the unsafe code into an unobserved package")
			return nil, false
		}
	}
	if !t.promotedCallbacks(call, sig, c.name) {
		return nil, false
	}
	return o, true
}

// outcallCallee makes the callee the helper's first parameter: a method
// call's receiver, or the function value called.
func (t *transformer) outcallCallee(o *outcallHelper) bool {
	info := t.p.Info
	call, c := o.call, &o.c
	o.editStart = call.Fun.Pos()
	if callee, usesTP, ok, why := t.inferredCallee(call, *c); why != "" {
		t.errorf(call.Pos(), "an outcall whose type arguments involve "+why+" ("+c.name+")", "call it from an unobserved package and pass plain values in")
		return false
	} else if ok {
		o.inferred, o.usesTP = true, usesTP
		o.callee = callee
		return true
	}
	if c.sel == nil {
		ts, why := t.typeString(info.TypeOf(call.Fun)) // a named function type keeps its name (context.CancelFunc)
		if why != "" {
			t.errorf(call.Pos(), "an outcall involving "+why+" ("+c.name+")", "call it from an unobserved package and pass plain values in")
			return false
		}
		o.recvDecl = "fn " + ts
		o.callee = "fn"
		return true
	}
	// Method call: the receiver becomes the helper's first argument.
	fp, typ, promoted, why := t.promotedRecv(info.TypeOf(c.recvX), c.sel.Index(), c.fn) // promoted.go
	if why != "" {
		t.errorf(call.Pos(), why, "call the method on the embedded field explicitly")
		return false
	}
	o.fieldPath = fp
	msig := c.fn.Type().(*types.Signature)
	if _, ptrRecv := msig.Recv().Type().(*types.Pointer); ptrRecv && !types.IsInterface(typ) {
		// From a value the method is promoted from, its address only
		// when the method is not promoted through an embedded pointer.
		if _, isPtr := typ.Underlying().(*types.Pointer); !isPtr && (!promoted || types.NewMethodSet(typ).Lookup(c.fn.Pkg(), c.fn.Name()) == nil) {
			typ = types.NewPointer(typ)
			o.prefix = "&"
		}
	}
	typ = t.nameableIface(typ)
	ts, why := t.typeString(typ)
	if why != "" {
		t.errorf(call.Pos(), "a method call on a value of "+why+" ("+c.name+")", "call it from an unobserved package, or keep this package out of the observed set")
		return false
	}
	o.usesTP = hasTypeParam(typ)
	o.recvDecl = "_r " + ts
	o.callee = "_r." + c.fn.Name()
	o.recvEnc = t.probe + ".Recv(s, _r)"
	o.editStart = c.recvX.Pos()
	c.iface = types.IsInterface(typ)
	if _, tp := typ.(*types.TypeParam); mayHoldFunc(typ) && !tp {
		// A receiver that may be an observed function value of an external
		// function type (chi's mx.handler.ServeHTTP(w, r) on
		// http.HandlerFunc(mx.routeHTTP)): the external method calls it, so
		// it is a callback like a function argument. Not for a type
		// parameter: boxing its value to ask would allocate.
		o.cbs = append(o.cbs, "_r = "+t.probe+".Callback(_r)")
	}
	if _, isSlice := typ.Underlying().(*types.Slice); isSlice && !c.iface {
		// A method of a slice type shares the caller's backing array and
		// may write it (goldmark's renderer: r.config.NodeRenderers.Sort(),
		// util.PrioritizedSlice sorting in place): the receiver is an
		// out-parameter, as a slice argument is, recorded after the call
		// and written back in replay.
		o.outEncs = append(o.outEncs, t.probe+".Encode(s, _r)")
		o.outDecs = append(o.outDecs, "copy(_r, "+t.probe+".Decode["+ts+"](s))")
	}
	return true
}

// outcallParams declares the helper's parameters and how each is recorded,
// out-parameters and callbacks included.
func (t *transformer) outcallParams(o *outcallHelper, stack []ast.Node) bool {
	call, c, sig := o.call, o.c, o.sig
	o.decls = nil
	if !o.inferred {
		o.decls = []string{o.recvDecl}
	}
	// For a Read-like call (first result n int) only p[:n] of an
	// out-parameter is recorded.
	readLike := c.fn != nil && sig.Results().Len() > 0 && isInt(sig.Results().At(0).Type()) &&
		(c.fn.Name() == "Read" || c.fn.Name() == "ReadAt" || c.fn.Name() == "ReadFull" || c.fn.Name() == "ReadAtLeast")
	var ptrOut map[int][]int         // out-parameters through pointers (outparam.go)
	argsRead := argsOnlyRead[c.name] // owned.go
	if !o.curried && !argsRead {
		ptrOut = t.outParams(call, sig, stack)
	}
	t.recvOut(o, stack) // outwrites.go
	for i := 0; i < sig.Params().Len(); i++ {
		pt := sig.Params().At(i).Type()
		name := fmt.Sprintf("p%d", i)
		ts, why := t.typeString(pt)
		if why != "" {
			t.errorf(call.Pos(), "an outcall with a parameter of "+why+" ("+c.name+")", "call it from an unobserved package")
			return false
		}
		variadic := sig.Variadic() && i == sig.Params().Len()-1
		if variadic {
			o.decls = append(o.decls, name+" ..."+strings.TrimPrefix(ts, "[]"))
			o.args = append(o.args, name+"...")
		} else {
			o.decls = append(o.decls, name+" "+ts)
			o.args = append(o.args, name)
		}
		_, isSlice := pt.Underlying().(*types.Slice)
		switch {
		case isSlice && !variadic && isByteSlice(pt) && readLike:
			o.encs = append(o.encs, "s.Int(int64(len("+name+")))")
			o.outEncs = append(o.outEncs, "s.OutBytes("+name+"[:min(max(r0, 0), len("+name+"))])")
			o.outDecs = append(o.outDecs, "copy("+name+", s.DecodeBytes())")
		case isSlice && !variadic && isByteSlice(pt):
			o.encs = append(o.encs, t.paramEncStmt(name, pt, sig.Params().At(i).Name(), c.name, false))
			o.outEncs = append(o.outEncs, "s.OutBytes("+name+")")
			o.outDecs = append(o.outDecs, "copy("+name+", s.DecodeBytes())")
		case isSlice && !variadic:
			o.encs = append(o.encs, t.encStmt(name, pt))
			o.outEncs = append(o.outEncs, t.probe+".Encode(s, "+name+")")
			o.outDecs = append(o.outDecs, "copy("+name+", "+t.probe+".Decode["+ts+"](s))")
		case !variadic && mapOut(pt): // outwrites.go
			o.encs = append(o.encs, t.paramEncStmt(name, pt, sig.Params().At(i).Name(), c.name, false))
			o.outEncs = append(o.outEncs, t.probe+".OutMap(s, "+name+")")
			o.outDecs = append(o.outDecs, t.probe+".SetMap(s, "+name+")")
		case c.name == "runtime.FuncForPC" && i == 0:
			// An address of a function from outside: the capture's
			// binary's, which replay matches to its own one to one
			// (runtime/probe/codepc.go).
			o.encs = append(o.encs, t.probe+".CodePC(s, "+name+")")
		default:
			o.encs = append(o.encs, t.paramEncStmt(name, pt, sig.Params().At(i).Name(), c.name, false))
		}
		for _, k := range ptrOut[i] {
			if k == observedPtrOut {
				o.outEncs = append(o.outEncs, t.probe+".Pointee(s, "+name+")")
				o.outDecs = append(o.outDecs, t.probe+".SetMarkedOutPointee(s, "+name+")")
				continue
			}
			arg := name
			if k >= 0 {
				arg = fmt.Sprintf("%s[%d]", name, k)
			}
			o.outEncs = append(o.outEncs, t.probe+".Pointee(s, "+arg+")")
			o.outDecs = append(o.outDecs, t.probe+".SetPointee(s, "+arg+")")
		}
		if argsRead {
			// The callee only reads what its arguments point to.
		} else if !variadic && !o.curried && t.ifaceOut(call, i, pt, enclosingFuncNode(stack)) { // outwrites.go
			o.outEncs = append(o.outEncs, t.probe+".OutPointee(s, "+name+")")
			o.outDecs = append(o.outDecs, t.probe+".SetOutPointee(s, "+name+")")
		} else if !variadic && !o.curried && len(ptrOut[i]) == 0 && t.ownedArgAtRunTime(call, i, pt) { // owned.go
			t.ownedAtRunTime(o, name)
		}
		if !variadic && mayHoldFunc(pt) {
			// An observed function value handed to external code may be
			// called back: record those calls (capture), perform them (replay).
			o.cbs = append(o.cbs, name+" = "+t.probe+".Callback("+name+")")
		}
	}
	return true
}

// outcallResults declares the helper's results, how each is recorded and
// how replay decodes it; the out-parameters follow the results.
func (t *transformer) outcallResults(o *outcallHelper) bool {
	sig := o.sig
	for i := 0; i < sig.Results().Len(); i++ {
		rt := sig.Results().At(i).Type()
		ts, why := t.typeString(rt)
		if why != "" {
			t.errorf(o.call.Pos(), "an outcall with a result of "+why+" ("+o.c.name+")", "call it from an unobserved package")
			return false
		}
		rn := fmt.Sprintf("r%d", i)
		o.results = append(o.results, ts)
		o.rnames = append(o.rnames, rn)
		enc, dec := t.paramEncStmt(rn, rt, "", o.c.name, false), t.decExpr(rt, ts)
		if t.reflectedResult(rt) { // reflect.go
			enc = t.probe + ".EncodeResultReflected(s, " + rn + ")"
			dec = strings.Replace(dec, t.probe+".Decode[", t.probe+".DecodeLinked[", 1)
		}
		o.rencs = append(o.rencs, enc)
		o.rdecs = append(o.rdecs, rn+" := "+dec)
	}
	o.rencs = append(o.rencs, o.outEncs...)
	o.rdecs = append(o.rdecs, o.outDecs...)
	t.keptByResults(o) // owned.go
	return true
}

// outcallTypeParams makes the helper generic over the enclosing function's
// type parameters when the call names them.
func (t *transformer) outcallTypeParams(o *outcallHelper, stack []ast.Node) bool {
	if !o.usesTP && !hasTypeParam(o.sig) {
		return true
	}
	var why string
	o.tpDecl, o.tpArgs, why = t.typeParams(t.enclosingTypeParams(stack))
	if why != "" || o.tpDecl == "" {
		t.errorf(o.call.Pos(), "an outcall in generic code ("+o.c.name+") whose enclosing function has "+why, "name every type parameter of the enclosing function (no _)")
		return false
	}
	return true
}

// outcallHelperText writes helper h of site: the native call when the
// stream does not record it, else the call recorded (capture) or answered
// from the log (replay).
func (t *transformer) outcallHelperText(o *outcallHelper, site, h string) string {
	info := t.p.Info
	call, c := o.call, o.c
	var b strings.Builder
	fmt.Fprintf(&b, "// %s calls %s (%s).\n", h, c.name, o.pos)
	if o.curried {
		first, params := "", o.decls
		if !o.inferred {
			first, params = o.decls[0], o.decls[1:]
		}
		inner := "func(" + strings.Join(params, ", ") + ") " + resultList(o.results)
		fmt.Fprintf(&b, "func %s%s(%s) %s {\n\treturn %s {\n", h, o.tpDecl, first, inner, inner)
	} else {
		fmt.Fprintf(&b, "func %s%s(%s) %s {\n", h, o.tpDecl, strings.Join(o.decls, ", "), resultList(o.results))
	}
	direct := o.callee + "(" + strings.Join(o.args, ", ") + ")"
	native := direct
	if c.sel != nil && !c.iface && syncPointer(info.TypeOf(c.recvX)) {
		if h := t.lockHelper(c.fn); h != "" {
			// A lock that did not cross: acquired at its turn (lockturns.go).
			native = h + "(&" + t.siteVar(types.ExprString(call.Fun), o.pos, false) + ", _r)"
		}
	}
	if c.name == "runtime.FuncForPC" && len(o.args) == 1 {
		// The address may be one replay answered from the log (a
		// function's in the capture's binary: address.go).
		native = o.callee + "(" + t.probe + ".NativePC(" + o.args[0] + "))"
	}
	ret := "return "
	if len(o.results) == 0 {
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
	if c.printsAddr {
		// Native, as before, in replay of a log that records no address.
		cond += " || " + t.probe + ".AddressesUnrecorded()"
	}
	if c.name == "runtime.FuncForPC" && len(o.args) == 1 {
		// The function at an address of the observed code's own code
		// is the same in replay's binary, the address is not.
		cond += " || " + t.probe + ".ObservedPC(" + t.probe + ".NativePC(" + o.args[0] + "))"
	}
	if c.sel != nil && !c.iface && syncPointer(info.TypeOf(c.recvX)) {
		// wg.Done() on a *sync.WaitGroup parameter: native unless the
		// object crossed the boundary (runtime/probe/syncobj.go).
		cond += " || " + t.probe + ".Private(_r)"
	}
	fmt.Fprintf(&b, "\ts := %s.Out(&%s)\n\tif %s {\n\t\t%s%s\n", t.probe, site, cond, ret, native)
	if len(o.results) == 0 {
		b.WriteString("\t\treturn\n")
	}
	b.WriteString("\t}\n")
	if c.sel != nil {
		b.WriteString("\t" + o.recvEnc + "\n")
	}
	if c.funcValue {
		b.WriteString("\t" + t.probe + ".Recv(s, fn)\n")
	}
	for _, e := range o.encs {
		b.WriteString("\t" + e + "\n")
	}
	for _, c := range o.cbs {
		b.WriteString("\t" + c + "\n")
	}
	b.WriteString("\tf := s.Call()\n\tif s.Replaying() {\n\t\ts.Answer(f)\n")
	for _, d := range o.rdecs {
		b.WriteString("\t\t" + d + "\n")
	}
	b.WriteString("\t\ts.Done(f)\n")
	b.WriteString("\t\treturn " + strings.Join(o.rnames, ", ") + "\n\t}\n")
	runCall(&b, direct, o.rnames, o.results)
	for _, e := range o.rencs {
		b.WriteString("\t" + e + "\n")
	}
	b.WriteString("\ts.Return(f)\n")
	if len(o.results) > 0 {
		b.WriteString("\treturn " + strings.Join(o.rnames, ", ") + "\n")
	}
	if o.curried {
		b.WriteString("}\n")
	}
	b.WriteString("}\n\n")
	return b.String()
}

// rewriteOutcall rewrites the call site to call helper h: f(a) -> h(f, a);
// x.M(a) -> h(x, a); f(g()) -> h(f)(g()); x.M(g()) -> h(x)(g()).
func (t *transformer) rewriteOutcall(o *outcallHelper, h string) {
	call, c := o.call, o.c
	span := int(call.End() - call.Pos())
	if o.inferred {
		// The helper calls the function itself: f(a) -> h[T](a), f(g()) ->
		// h[T]()(g()).
		t.dropRefs(call.Fun)
		if o.curried {
			t.add(call.Fun.Pos(), call.Fun.End(), h+o.tpArgs+"()", span)
		} else {
			t.add(call.Fun.Pos(), call.Lparen+1, h+o.tpArgs+"(", span)
		}
		return
	}
	t.add(o.editStart, o.editStart, h+o.tpArgs+"("+o.prefix, span)
	if o.curried {
		if c.sel != nil {
			t.add(c.recvX.End(), call.Lparen, o.fieldPath+")", span)
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
		t.add(c.recvX.End(), call.Lparen+1, o.fieldPath+sep, span)
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
