package transform

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// isIncall reports whether fd, a function or method of the observed
// package, is entered from outside the set: exported, or unexported and
// named by the package's in-package test files (testUses).
func (t *transformer) isIncall(fd *ast.FuncDecl) bool {
	if fd.Name.IsExported() {
		return true
	}
	if fd.Name.Name == "init" || fd.Name.Name == "_" || (fd.Recv == nil && fd.Name.Name == "main") {
		return false
	}
	return t.testUses[fd.Name.Name]
}

// testUses returns the names the test files refer to: every identifier
// and selected name (f, x.m) except those the files declare (functions,
// methods, types, fields and parameters). From syntax alone: the Bazel
// action that transforms a library has the export data of its own
// dependencies only, not of its tests', and a name the tests use for
// something else (a local variable, a method of a test double) only wraps
// a function no test calls, which costs the wrapper's check of probe.On.
func testUses(files []*ast.File) map[string]bool {
	if len(files) == 0 {
		return nil
	}
	uses := map[string]bool{}
	for _, f := range files {
		declared := map[*ast.Ident]bool{f.Name: true}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				return false
			case *ast.FuncDecl:
				declared[n.Name] = true
			case *ast.TypeSpec:
				declared[n.Name] = true
			case *ast.Field:
				for _, id := range n.Names {
					declared[id] = true
				}
			case *ast.Ident:
				if !declared[n] {
					uses[n.Name] = true
				}
			}
			return true
		})
	}
	return uses
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
	if seen[t] || isReflectValue(t) {
		// A reflect.Value is recorded as what it refers to, not as its
		// words (value.TagReflectValue).
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

// incallWrapper describes the code that wraps one exported function or
// method of the observed package, built step by step before it is written:
// the exported name stays and calls the original (renamed _capture_NAME),
// through a recording path when capture is on; an invoker performs recorded
// incalls in replay.
type incallWrapper struct {
	fd  *ast.FuncDecl
	sig *types.Signature
	// Generic code keeps its type parameters (generic.go).
	tps            *types.TypeParamList
	tpDecl, tpArgs string
	fnTP, fnTA     string // on the function itself; a method's are on its receiver
	generic        bool
	pos            string // the declaration's site position
	name           string // the site name: pkg.F or (pkg.T).M

	recvDecl string // "(_r T) " for a method
	callee   string // the renamed original, as the wrapper calls it
	recvTS   string // the receiver's type
	recvName string // the receiver's type name (replay hooks of generic methods)

	decls, args, encs, decs, dargs []string // parameters
	results, rnames, rencs         []string // results
	written                        []string // after the results: what the call wrote through parameters it reflects over
	watch                          []string // slice results whose memory external code may write later (slicewatch.go)
	returned                       []string // function results external code may call (probe.Returned)
	hook                           string   // a generic declaration's replay hook
}

// funcDecl wraps an exported function or method of the observed package,
// or an unexported one that the package's in-package tests call or take as
// a value: such a test calls it from outside the observed set, as external
// code calls an exported one, and replay must perform the call to check
// what it does. The wrapper's probe.In tells a call from observed code,
// which stays a plain call, from one from outside. An unexported function
// whose signature cannot be an incall (the rejections below) stays a plain
// function, as one no test calls: the package's own API is not at fault,
// and its calls from tests stay unrecorded (docs/limitations.md).
func (t *transformer) funcDecl(fd *ast.FuncDecl) {
	if fd.Body == nil || !t.isIncall(fd) {
		return
	}
	if !fd.Name.IsExported() {
		n := len(t.errs)
		defer func() { t.errs = t.errs[:n] }()
	}
	fn, ok := t.p.Info.Defs[fd.Name].(*types.Func)
	if !ok {
		return
	}
	w := &incallWrapper{fd: fd, sig: fn.Type().(*types.Signature)}
	w.tps = w.sig.TypeParams()
	if w.sig.RecvTypeParams() != nil {
		w.tps = w.sig.RecvTypeParams()
	}
	var why string
	w.tpDecl, w.tpArgs, why = t.typeParams(w.tps)
	if why != "" {
		t.errorf(fd.Pos(), "an exported generic function or method with "+why, "name every type parameter (no _) and use constraints the package can name")
		return
	}
	w.generic = w.tpDecl != ""
	if w.generic {
		t.allowTP = true
		defer func() { t.allowTP = false }()
	}
	w.fnTP, w.fnTA = w.tpDecl, w.tpArgs
	w.pos = t.sitePos(fd.Name.Pos())
	w.name = t.p.Types.Path() + "." + fd.Name.Name
	w.callee = "_capture_" + fd.Name.Name + w.fnTA
	if !t.incallSignatureAllowed(w) || !t.incallReceiver(w) || !t.incallParams(w) || !t.incallResults(w) || !t.incallHook(w) {
		return
	}
	t.registerSignature(w.sig)
	if !fd.Name.IsExported() {
		if t.testIncalls == nil {
			t.testIncalls = map[string]bool{}
		}
		key := fd.Name.Name
		if w.recvName != "" {
			key = w.recvName + "." + key
		}
		t.testIncalls[key] = true
	}
	siteName := w.name
	if w.generic && w.sig.Recv() == nil {
		siteName += strings.ReplaceAll(w.tpArgs, " ", "")
	}
	site := t.siteVar(siteName, w.pos, false)

	// Rename the original in place.
	t.add(fd.Name.Pos(), fd.Name.End(), "_capture_"+fd.Name.Name, 0)

	t.gen.WriteString(t.incallText(w, site))
	if !w.generic {
		inv := strings.Replace(site, "_site_", "_invoke_", 1)
		fmt.Fprintf(&t.inits, "\t%s.Invoke = %s\n\t%s.Incall(&%s)\n", site, inv, t.probe, site)
	}
}

// incallSignatureAllowed rejects a signature replay cannot rebuild values of.
func (t *transformer) incallSignatureAllowed(w *incallWrapper) bool {
	for _, v := range signatureVars(w.sig) {
		if via := holdsUnsafePointer(v.Type(), nil); via != "" {
			// Replay rebuilds such values from their recorded contents,
			// but cannot rebuild the memory they point into, and its
			// numbering of those pointers differs (study, go-cmp
			// cmp/internal/value: value.PointerOf, SortKeys([]reflect.Value)).
			t.errorf(w.fd.Pos(), "an exported function whose signature holds an unsafe.Pointer by value ("+types.TypeString(v.Type(), fullQualifier)+via+")",
				"keep reflect.Value and unsafe.Pointer off the observed set's exported API (pass the underlying values), or keep this package out of the observed set")
			return false
		}
		if r := t.reflectValueHeld(v.Type(), t.reflectsOutside()); r != "" && !unexportedRecv(w.sig, v) {
			// Reflection runs natively (reflect.go): a reflect.Value from
			// outside would be a placeholder in replay. A reflect.Type
			// crosses as the identity of its type and replays as that
			// type (value.TagReflectType).
			t.errorf(w.fd.Pos(), "an exported function whose signature holds a "+r+" ("+types.TypeString(v.Type(), fullQualifier)+")",
				"keep reflect.Value off the observed set's exported API (pass the underlying values), or keep this package out of the observed set")
			return false
		}
	}
	return true
}

// unexportedRecv reports whether v is the receiver of a method of an
// unexported type (toml's byName.Less, for sort.Interface): external code
// gets such a value only from the package, and calls back into it on the
// value the package's code passed, which replay passes too.
func unexportedRecv(sig *types.Signature, v *types.Var) bool {
	if sig.Recv() != v {
		return false
	}
	rt := v.Type()
	if p, ok := rt.(*types.Pointer); ok {
		rt = p.Elem()
	}
	n, ok := types.Unalias(rt).(*types.Named)
	return ok && !n.Obj().Exported()
}

// incallReceiver makes a method's receiver the wrapper's: the site is named
// after the receiver type, and the type parameters are the receiver's.
func (t *transformer) incallReceiver(w *incallWrapper) bool {
	sig, fd := w.sig, w.fd
	if sig.Recv() == nil {
		return true
	}
	w.fnTP, w.fnTA = "", ""
	ts, why := t.typeString(sig.Recv().Type())
	if why != "" {
		t.errorf(fd.Pos(), "a method whose receiver is a "+why, "keep the type out of the observed set")
		return false
	}
	w.recvTS = ts
	w.recvDecl = "(_r " + ts + ") "
	w.callee = "_r._capture_" + fd.Name.Name
	w.name = "(" + types.TypeString(sig.Recv().Type(), fullQualifier) + ")." + fd.Name.Name
	rt := sig.Recv().Type()
	if p, ok := rt.(*types.Pointer); ok {
		rt = p.Elem()
	}
	if n, ok := types.Unalias(rt).(*types.Named); ok {
		w.recvName = n.Obj().Name()
	}
	return true
}

// incallParams declares the wrapper's parameters, how each is recorded, and
// how the invoker decodes it in replay.
func (t *transformer) incallParams(w *incallWrapper) bool {
	sig, fd := w.sig, w.fd
	for i := 0; i < sig.Params().Len(); i++ {
		pt := sig.Params().At(i).Type()
		if isUnsafePointer(pt) {
			t.errorf(fd.Pos(), "an exported function with an unsafe.Pointer parameter", "keep unsafe.Pointer off the observed set's exported API")
			return false
		}
		ts, why := t.typeString(pt)
		if why != "" {
			t.errorf(fd.Pos(), "an exported function with a parameter of "+why, "use types the package can name")
			return false
		}
		pn := fmt.Sprintf("p%d", i)
		if sig.Variadic() && i == sig.Params().Len()-1 {
			w.decls = append(w.decls, pn+" ..."+strings.TrimPrefix(ts, "[]"))
			w.args = append(w.args, pn+"...")
		} else {
			w.decls = append(w.decls, pn+" "+ts)
			w.args = append(w.args, pn)
		}
		pv := sig.Params().At(i).Name()
		w.encs = append(w.encs, t.paramEncStmt(pn, pt, pv, w.name, t.redact.params[fd][pv]))
		dec := t.decExpr(pt, ts)
		if enc, written := t.reflectedParam(pn, pt); enc != "" { // reflect.go
			w.encs[len(w.encs)-1] = enc
			if written != "" {
				w.written = append(w.written, written)
			}
			// Replay ends, with its own outcome, at a value it cannot
			// rebuild for native reflection.
			dec = strings.Replace(dec, t.probe+".Decode[", t.probe+".DecodeReflected[", 1)
		}
		w.decs = append(w.decs, pn+" := "+dec)
		w.dargs = append(w.dargs, w.args[len(w.args)-1])
	}
	return true
}

// incallResults declares the wrapper's results and how each is recorded.
func (t *transformer) incallResults(w *incallWrapper) bool {
	sig, fd := w.sig, w.fd
	for i := 0; i < sig.Results().Len(); i++ {
		rt := sig.Results().At(i).Type()
		if _, slice := rt.Underlying().(*types.Slice); slice {
			if at := t.stringDataView(fd); at != nil {
				t.errorf(at.Pos(), "an exported function returning a slice that views a string's memory (unsafe.StringData)",
					"strings cross the boundary by value, so replay cannot give the slice the array the capture saw: copy the string ([]byte(s)), or make the conversion in an unobserved package")
				return false
			}
		}
		if isUnsafePointer(rt) {
			t.errorf(fd.Pos(), "an exported function with an unsafe.Pointer result", "keep unsafe.Pointer off the observed set's exported API")
			return false
		}
		ts, why := t.typeString(rt)
		if why != "" {
			t.errorf(fd.Pos(), "an exported function with a result of "+why, "use types the package can name")
			return false
		}
		w.results = append(w.results, ts)
		rn := fmt.Sprintf("r%d", i)
		w.rnames = append(w.rnames, rn)
		w.rencs = append(w.rencs, t.paramEncStmt(rn, rt, "", w.name, false))
		if watchedSlice(rt) {
			w.watch = append(w.watch, fmt.Sprintf("%s.WatchSlice(s, f, %d, %s)", t.probe, i, rn))
		}
		if watchedMap(rt) {
			w.watch = append(w.watch, fmt.Sprintf("%s.WatchMap(s, f, %d, %s)", t.probe, i, rn))
		}
		if heldResult(rt) {
			w.watch = append(w.watch, fmt.Sprintf("%s.KeepResult(s, %s)", t.probe, rn))
		}
		if _, tp := rt.(*types.TypeParam); mayHoldFunc(rt) && !tp {
			// An observed closure returned to external code (an iterator,
			// an option, or one in an interface: chi's middleware returns
			// http.HandlerFunc(fn) as an http.Handler, which the router
			// serves) may be called by it: those calls are recorded, and
			// performed in replay, as callbacks are. Not for a type
			// parameter: boxing its value to ask would allocate.
			w.returned = append(w.returned, rn+" = "+t.probe+".Returned("+rn+")")
		}
	}
	return true
}

// incallHook names the replay hook of a generic declaration, which must not
// clash with a declaration of the package.
func (t *transformer) incallHook(w *incallWrapper) bool {
	if !w.generic {
		return true
	}
	w.hook = instanceHook(w.recvName, w.fd.Name.Name)
	if t.taken[w.hook] {
		t.errorf(w.fd.Pos(), "a generic function or method whose replay hook "+w.hook+" clashes with a declaration of the package", "rename the declaration "+w.hook)
		return false
	}
	t.taken[w.hook] = true
	return true
}

// incallText writes the code of wrapper w at site: the exported function,
// its recording path, the invoker, and for generic code the site of each
// instantiation.
func (t *transformer) incallText(w *incallWrapper, site string) string {
	fd := w.fd
	inv := strings.Replace(site, "_site_", "_invoke_", 1)
	var b strings.Builder
	slow := strings.Replace(site, "_site_", "_in_", 1)
	direct := w.callee + "(" + strings.Join(w.args, ", ") + ")"
	ret := "return "
	if len(w.results) == 0 {
		ret = ""
	}
	// The exported function stays small enough to inline (one call: the
	// compiler's budget allows no second one): with capture off it costs a
	// load and a branch. The recording path checks for a call from inside
	// the observed set.
	fmt.Fprintf(&b, "// %s records calls of %s into the observed set (%s).\n", fd.Name.Name, w.name, w.pos)
	fmt.Fprintf(&b, "func %s%s%s(%s) %s {\n", w.recvDecl, fd.Name.Name, w.fnTP, strings.Join(w.decls, ", "), resultList(w.results))
	slowArgs, slowDecls, original := w.args, w.decls, w.callee
	if w.recvDecl != "" {
		slowArgs = append([]string{"_r"}, w.args...)
		slowDecls = append([]string{"_r " + w.recvTS}, w.decls...)
		original = methodExpr(w.recvTS, "_capture_"+fd.Name.Name)
	}
	fmt.Fprintf(&b, "\tcall := %s\n\tif %s.On() {\n\t\tcall = %s%s\n\t}\n", original, t.probe, slow, w.tpArgs)
	fmt.Fprintf(&b, "\t%scall(%s)\n}\n\n", ret, strings.Join(slowArgs, ", "))

	fmt.Fprintf(&b, "// %s records one incall of %s: CALL_IN, then RETURN_IN or PANIC_OUT.\n", slow, w.name)
	fmt.Fprintf(&b, "func %s%s(%s) %s {\n", slow, w.tpDecl, strings.Join(slowDecls, ", "), resultList(w.results))
	fmt.Fprintf(&b, "\ts := %s.In(&%s)\n\tif s == nil { // called from observed code\n", t.probe, site)
	if len(w.results) > 0 {
		fmt.Fprintf(&b, "\t\treturn %s\n\t}\n", direct)
	} else {
		fmt.Fprintf(&b, "\t\t%s\n\t\treturn\n\t}\n", direct)
	}
	inst := strings.Replace(site, "_site_", "_inst_", 1)
	if w.generic {
		fmt.Fprintf(&b, "\ts.Instance(%s%s())\n", inst, w.tpArgs)
	}
	if w.recvDecl != "" {
		fmt.Fprintf(&b, "\t%s.Recv(s, _r)\n", t.probe)
	}
	for _, e := range w.encs {
		b.WriteString("\t" + e + "\n")
	}
	b.WriteString("\tf := s.Call()\n")
	runCall(&b, direct, w.rnames, w.results)
	for _, e := range append(append(w.rencs[:len(w.rencs):len(w.rencs)], w.written...), w.watch...) {
		b.WriteString("\t" + e + "\n")
	}
	for _, r := range w.returned {
		b.WriteString("\t" + r + "\n") // before the RETURN_IN, where a checkpoint may be taken
	}
	b.WriteString("\ts.Return(f)\n")
	if len(w.results) > 0 {
		b.WriteString("\treturn " + strings.Join(w.rnames, ", ") + "\n")
	}
	b.WriteString("}\n\n")

	// The invoker: replay's driver performs a recorded incall through it.
	fmt.Fprintf(&b, "// %s performs a recorded call of %s in replay.\n", inv, w.name)
	fmt.Fprintf(&b, "func %s%s(s *%s.Stream) {\n", inv, w.tpDecl, t.probe)
	target := fd.Name.Name + w.fnTA
	if w.recvDecl != "" {
		fmt.Fprintf(&b, "\t_r := %s.Decode[%s](s)\n", t.probe, w.recvTS)
		target = "_r." + fd.Name.Name
	}
	for _, d := range w.decs {
		b.WriteString("\t" + d + "\n")
	}
	fmt.Fprintf(&b, "\tif s.Args() {\n\t\t%s(%s)\n\t}\n}\n\n", target, strings.Join(w.dargs, ", "))
	if w.generic {
		t.instanceText(&b, w, site, inv, inst)
	}
	return b.String()
}

// instanceText writes the sites of a generic declaration's instantiations:
// one per instantiation, registered on first use, and the hook the replay
// harness calls with the type arguments its logs name.
func (t *transformer) instanceText(b *strings.Builder, w *incallWrapper, site, inv, inst string) {
	prefix, suffix := w.name, ""
	if w.sig.Recv() != nil {
		i := strings.Index(w.name, "[")
		j := strings.LastIndex(w.name, ").")
		prefix, suffix = w.name[:i], w.name[j:]
	}
	gv := strings.Replace(site, "_site_", "_generic_", 1)
	fmt.Fprintf(b, "var %s = %s.Generic{Prefix: %q, Suffix: %q, Pos: %q}\n\n", gv, t.probe, prefix, suffix, w.pos)
	var targs []string
	for i := 0; i < w.tps.Len(); i++ {
		targs = append(targs, t.probe+".TypeArg["+w.tps.At(i).Obj().Name()+"]()")
	}
	instName := w.name
	if w.sig.Recv() == nil {
		instName += w.tpArgs
	}
	fmt.Fprintf(b, "// %s is the site of the instantiation %s.\n", inst, instName)
	fmt.Fprintf(b, "func %s%s() *%s.Site {\n\treturn %s.Instance(&%s, %s%s, %s)\n}\n\n", inst, w.tpDecl, t.probe, t.probe, gv, inv, w.tpArgs, strings.Join(targs, ", "))
	fmt.Fprintf(b, "// %s makes the instantiation %s known to replay:\n// the replay harness calls it with the type arguments its logs name.\n", w.hook, instName)
	fmt.Fprintf(b, "func %s%s() { %s%s() }\n\n", w.hook, w.tpDecl, inst, w.tpArgs)
}

// methodExpr is the method expression of method m of receiver type recv:
// T.m, (*T).m.
func methodExpr(recv, m string) string {
	if strings.HasPrefix(recv, "*") {
		return "(" + recv + ")." + m
	}
	return recv + "." + m
}
