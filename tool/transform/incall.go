package transform

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

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
