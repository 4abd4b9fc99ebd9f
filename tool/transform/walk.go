package transform

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// walk finds the outcalls, the reads of other packages' variables, the
// types and sentinels replay must know, and the unsupported constructs of f.
func (t *transformer) walk(f *ast.File) {
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		switch x := n.(type) {
		case *ast.GoStmt:
			t.goStmt(x, stack)
		case *ast.SelectStmt:
			for _, st := range x.Body.List {
				switch comm := st.(*ast.CommClause).Comm.(type) {
				case *ast.SendStmt:
					t.chanComm[comm] = true
				case *ast.ExprStmt:
					t.chanComm[ast.Unparen(comm.X)] = true
				case *ast.AssignStmt:
					t.chanComm[ast.Unparen(comm.Rhs[0])] = true
				}
			}
			t.selects = append(t.selects, pendingSelect{x, append([]ast.Node{}, stack...)})
		case *ast.UnaryExpr:
			if x.Op == token.ARROW && !t.chanComm[x] {
				t.recv(x, stack)
			}
		case *ast.SendStmt:
			if !t.chanComm[x] {
				t.send(x, stack)
			}
		case *ast.CallExpr:
			t.call(x, stack)
			t.reflectMapKeys(x)
			t.reflectMapRange(x, stack)
		case *ast.AssignStmt:
			t.assignOut(x, stack)
		case *ast.IncDecStmt:
			t.incDecOut(x, stack)
		case *ast.RangeStmt:
			t.rangeOut(x)
			t.rangeChan(x, stack)
			t.rangeMap(x)
			t.rangeFunc(x, stack)
		case *ast.SelectorExpr:
			t.selector(x, parent, stack)
		case *ast.StarExpr:
			t.derefRead(x, parent, stack)
		case *ast.TypeAssertExpr:
			if x.Type != nil {
				t.registerType(t.p.Info.TypeOf(x.Type))
				t.assertedIface(t.p.Info.TypeOf(x.Type))
			}
		case *ast.CaseClause:
			for _, e := range x.List {
				if tv, ok := t.p.Info.Types[e]; ok && tv.IsType() {
					t.registerType(tv.Type)
					t.assertedIface(tv.Type)
				}
			}
		}
		return true
	})
}

// registerType makes replay able to rebuild values of typ by name: types
// named in type assertions, type switches and errors.As targets.
func (t *transformer) registerType(typ types.Type) {
	if typ == nil || hasTypeParam(typ) {
		return // registered per package, where no type parameter is in scope
	}
	if _, ok := typ.Underlying().(*types.Interface); ok {
		return
	}
	s, why := t.typeString(typ)
	if why != "" || t.regTypes[s] {
		return
	}
	t.regTypes[s] = true
	fmt.Fprintf(&t.register, "\t%s.Type[%s]()\n", t.probe, s)
}

// callee classifies the function a call expression calls.
type callee struct {
	fn        *types.Func
	sel       *types.Selection // method calls
	iface     bool             // interface method: dynamic dispatch
	name      string           // site name
	recvX     ast.Expr         // receiver expression for method calls
	addr      bool             // the call takes the receiver's address implicitly
	fieldPath string           // explicit embedded-field path, ".A.B"
	recvType  types.Type       // static type of the receiver argument of the helper
	funcValue bool             // a call of a function value, observed or not
	// printsAddr: a pure function that may print an address, an outcall
	// only in logs that record addresses (address.go).
	printsAddr bool
}

func (t *transformer) call(call *ast.CallExpr, stack []ast.Node) {
	info := t.p.Info
	if tv, ok := info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && tv.IsBuiltin() && id.Name == "close" {
			t.closeChan(call, stack)
		}
		if name, ok := t.addrSource(call); ok {
			t.addressRead(call, name) // uintptr(unsafe.Pointer(p)) (address.go)
		}
		t.stringMemory(call) // stringdata.go
		return               // conversion or builtin
	}
	fun := ast.Unparen(call.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok { // explicit instantiation f[T](...)
		fun = ix.X
	} else if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	var c callee
	switch x := fun.(type) {
	case *ast.Ident:
		fn, ok := info.Uses[x].(*types.Func)
		if !ok {
			t.funcValueCall(call, stack)
			return
		}
		c.fn = fn
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok {
			switch sel.Kind() {
			case types.MethodVal:
				c.fn = sel.Obj().(*types.Func)
				c.sel = sel
				c.recvX = x.X
			case types.MethodExpr:
				c.fn = sel.Obj().(*types.Func)
			default:
				t.funcValueCall(call, stack)
				return
			}
		} else {
			fn, ok := info.Uses[x.Sel].(*types.Func)
			if !ok {
				t.funcValueCall(call, stack)
				return
			}
			c.fn = fn
		}
	case *ast.FuncLit:
		return // a closure called where it is written: observed code
	default:
		t.funcValueCall(call, stack)
		return
	}
	if c.fn.Pkg() == nil && c.sel == nil {
		return
	}
	if startsGoroutine(c) {
		t.waitGroupGo(call, c, stack) // wggo.go
		return
	}
	sig := c.fn.Type().(*types.Signature)
	if c.sel != nil {
		recv := sig.Recv().Type()
		if isReflect(recv) && t.reflectMethod(call, c) {
			return // reflect.Value, reflect.Type: native or rejected (reflect.go)
		}
		if !types.IsInterface(recv) && t.lockTurn(call, c) {
			return // a lock of the observed set: acquired at its turn (lockturns.go)
		}
		if types.IsInterface(recv) {
			c.iface = true
		} else if t.observed[c.fn.Pkg().Path()] {
			t.markOwnedArgs(call, c.fn, stack) // owned.go
			return                             // method of an observed type
		}
		c.name = "(" + types.TypeString(recv, fullQualifier) + ")." + c.fn.Name()
		if !c.iface && t.pureMethod(c, recv, stack) && !isReflect(recv) {
			return
		}
	} else {
		if c.fn.Pkg() != nil && t.observed[c.fn.Pkg().Path()] {
			if sig.Recv() == nil {
				t.markOwnedArgs(call, c.fn, stack) // owned.go
			}
			return // a function of the observed set
		}
		if sig.Recv() != nil { // method expression T.M
			c.name = "(" + types.TypeString(sig.Recv().Type(), fullQualifier) + ")." + c.fn.Name()
			if !types.IsInterface(sig.Recv().Type()) && t.observed[c.fn.Pkg().Path()] {
				return
			}
		} else {
			c.name = c.fn.Pkg().Path() + "." + c.fn.Name() + t.instanceArgs(fun)
		}
		if c.fn.Pkg().Path() == "reflect" && sig.Recv() == nil && t.reflectFunc(call, c) {
			return // native, or rejected (reflect.go)
		}
		// The errors package only walks chains, which replay rebuilds: native
		// whatever the arguments.
		errorsPkg := c.fn.Pkg().Path() == "errors" && !t.asTargetFromOutside(call, c.fn, stack) // owned.go
		pure := sig.Recv() == nil && isPureFunc(c.fn.Pkg().Path(), c.fn.Name(), t.opts.Pure) && (errorsPkg || t.ownedArgs(call))
		if pure && t.printsAddress(call, c.fn) { // address.go
			pure, c.printsAddr = false, true
		}
		if pure {
			if c.fn.Pkg().Path() == "errors" && c.fn.Name() == "As" && len(call.Args) == 2 {
				if p, ok := t.p.Info.TypeOf(call.Args[1]).(*types.Pointer); ok {
					t.registerType(p.Elem())
					t.assertedIface(p.Elem())
				}
			}
			return
		}
	}
	if t.reflectResults(call, c) {
		return
	}
	t.outcall(call, c, stack)
}

// fullQualifier names packages by import path, as sites do.
func fullQualifier(p *types.Package) string { return p.Path() }

func (t *transformer) pureMethod(c callee, recv types.Type, stack []ast.Node) bool {
	named, ptr := recv, false
	if p, ok := recv.(*types.Pointer); ok {
		named, ptr = p.Elem(), true
	}
	n, ok := types.Unalias(named).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	key := n.Obj().Pkg().Path() + "." + n.Obj().Name()
	if key == "time.Time" && !ptr {
		return pureTimeMethods[c.fn.Name()]
	}
	if !pureMethodTypes[key] && !purePackages[n.Obj().Pkg().Path()] {
		return false
	}
	// The receiver must be held directly: a pointer may have come from
	// outside and be a placeholder in replay.
	xt := t.p.Info.TypeOf(c.recvX)
	if _, isPtr := xt.Underlying().(*types.Pointer); isPtr && len(c.sel.Index()) == 1 {
		// Pointers produced by a pure package variable (base64.StdEncoding) are
		// the real thing in replay too.
		if se, ok := ast.Unparen(c.recvX).(*ast.SelectorExpr); ok {
			if v, ok := t.p.Info.Uses[se.Sel].(*types.Var); ok && v.Pkg() != nil && isPureVarPackage(v.Pkg().Path()) && v.Parent() == v.Pkg().Scope() {
				return true
			}
		}
		// A local pointer that only holds what native pure calls made
		// (w := csv.NewWriter(&buf)): the real object in replay too.
		if purePackages[n.Obj().Pkg().Path()] && t.pureLocal(c.recvX, enclosingFuncNode(stack)) {
			return true
		}
		// An address of memory the observed code owns (outparam.go: a
		// parameter of an unexported function every call gives `&buf`,
		// ksuid's set.writeTo(&b)): the real object in replay too.
		return !syncPointer(xt) && t.ownedAddr(c.recvX, enclosingFuncNode(stack))
	}
	return true
}

// ownedArgs: every argument's static type is one whose values observed code
// owns in replay too (no reference to an external object that replay
// replaces with a placeholder).
func (t *transformer) ownedArgs(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if _, lit := ast.Unparen(a).(*ast.FuncLit); lit {
			continue
		}
		if t.ownedBuffer(a) {
			continue
		}
		if !t.ownedType(t.p.Info.TypeOf(a), map[types.Type]bool{}) {
			return false
		}
	}
	return true
}

func (t *transformer) ownedType(typ types.Type, seen map[types.Type]bool) bool {
	if typ == nil {
		return false
	}
	if seen[typ] {
		return true
	}
	seen[typ] = true
	if types.Identical(typ, types.Universe.Lookup("error").Type()) {
		return true // recorded errors replay with the same message and chain
	}
	if n, ok := types.Unalias(typ).(*types.Named); ok && n.Obj().Pkg() != nil {
		p := n.Obj().Pkg().Path()
		if t.observed[p] {
			return true
		}
		if n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration" {
			return true
		}
		if isReflect(n) {
			return true // made natively by the package's own reflect calls (reflect.go)
		}
	}
	if tp, ok := typ.(*types.TypeParam); ok {
		return t.ownedTypeSet(tp.Constraint(), seen)
	}
	if tup, ok := typ.(*types.Tuple); ok { // f(g()) with a multi-value g
		for i := 0; i < tup.Len(); i++ {
			if !t.ownedType(tup.At(i).Type(), seen) {
				return false
			}
		}
		return true
	}
	switch u := typ.Underlying().(type) {
	case *types.Basic:
		return true
	case *types.Slice:
		return t.ownedType(u.Elem(), seen)
	case *types.Array:
		return t.ownedType(u.Elem(), seen)
	case *types.Map:
		return t.ownedType(u.Key(), seen) && t.ownedType(u.Elem(), seen)
	case *types.Pointer:
		return t.ownedType(u.Elem(), seen)
	case *types.Struct:
		if n, ok := types.Unalias(typ).(*types.Named); ok && n.Obj().Pkg() != nil && !t.observed[n.Obj().Pkg().Path()] {
			return false
		}
		for i := 0; i < u.NumFields(); i++ {
			if !t.ownedType(u.Field(i).Type(), seen) {
				return false
			}
		}
		return true
	case *types.Signature:
		return true
	}
	return false
}

// selector handles reads of other packages' variables and sentinel errors,
// and reads of fields of external structs through pointers.
func (t *transformer) selector(x *ast.SelectorExpr, parent ast.Node, stack []ast.Node) {
	if sel, ok := t.p.Info.Selections[x]; ok {
		if sel.Kind() == types.FieldVal {
			t.fieldRead(x, sel, stack)
		}
		return
	}
	id, ok := x.X.(*ast.Ident)
	if !ok {
		return
	}
	if _, ok := t.p.Info.Uses[id].(*types.PkgName); !ok {
		return
	}
	v, ok := t.p.Info.Uses[x.Sel].(*types.Var)
	if !ok || v.Pkg() == nil || t.observed[v.Pkg().Path()] {
		return
	}
	name := v.Pkg().Path() + "." + v.Name()
	if types.Identical(v.Type(), types.Universe.Lookup("error").Type()) {
		// An exported sentinel error: read natively, and registered so that
		// errors identical to it are recorded by name.
		if !t.sentinel[name] {
			t.sentinel[name] = true
			fmt.Fprintf(&t.register, "\t%s.Sentinel(%q, %s.%s)\n", t.probe, name, t.alias(v.Pkg().Path(), v.Pkg().Name()), v.Name())
		}
		return
	}
	if isPureVarPackage(v.Pkg().Path()) {
		return
	}
	if !t.readContext(x, stack) {
		return
	}
	t.readOut(x, v, name)
}

// readContext reports whether the variable x is only read here (not
// assigned, incremented, addressed, or reached through for a write).
func (t *transformer) readContext(x ast.Expr, stack []ast.Node) bool {
	child := ast.Node(x)
	for i := len(stack) - 2; i >= 0; i-- {
		p := stack[i]
		switch p := p.(type) {
		case *ast.ParenExpr:
			child = p
			continue
		case *ast.AssignStmt:
			for _, l := range p.Lhs {
				if l == child {
					return false
				}
			}
			return true
		case *ast.IncDecStmt:
			return false
		case *ast.RangeStmt:
			// The range expression is read once (expr's `range
			// c.Builtins` and `range config.Disabled` of a *conf.Config
			// an outcall made, a placeholder in replay whose maps are
			// empty): a field of an external struct holding a map, a
			// slice, an array or a string is read as when it is indexed.
			// Not a variable of another package (whole maps of other
			// packages are not copied at every read), nor a channel or a
			// function (ranged over natively), nor a key or value target.
			sx, ok := x.(*ast.SelectorExpr)
			if !ok || p.X != child || child != x || !t.isFieldSelector(sx) {
				return false
			}
			switch t.p.Info.TypeOf(x).Underlying().(type) {
			case *types.Map, *types.Slice, *types.Array:
				return true
			case *types.Basic:
				return types.Identical(t.p.Info.TypeOf(x).Underlying(), types.Typ[types.String])
			}
			return false
		case *ast.UnaryExpr:
			return p.Op != token.AND
		case *ast.SelectorExpr:
			// x.Field or x.Method: a read only through a pointer or interface,
			// and not when a method needs x's address.
			if sel, ok := t.p.Info.Selections[p]; ok && sel.Kind() == types.MethodVal {
				typ := t.p.Info.TypeOf(x)
				if _, isPtr := typ.Underlying().(*types.Pointer); isPtr || types.IsInterface(typ) {
					return true
				}
				if sig, ok := sel.Obj().Type().(*types.Signature); ok {
					if _, ptrRecv := sig.Recv().Type().(*types.Pointer); ptrRecv {
						return false
					}
				}
				return true
			}
			if _, isStruct := t.p.Info.TypeOf(x).Underlying().(*types.Struct); isStruct && len(stack) >= 2 && p.X == child {
				// x.F.G with x.F a struct held by value (go-toml's
				// expr.Raw.Offset, a Range in an *unstable.Node): x.F is
				// read if x.F.G is (not assigned, addressed, or the
				// receiver of a pointer method).
				return t.readContext(p, stack[:i+1])
			}
			return false
		case *ast.IndexExpr, *ast.SliceExpr:
			// pkg.Var[i], pkg.Var[i:j]: a read of the variable if the
			// element or slice is only read (os.Args[1:] in pflag's Parse,
			// which replay read from the harness's own os.Args); not
			// when slicing an array variable, whose slice aliases it.
			if ix, ok := p.(*ast.IndexExpr); ok && ix.X != child {
				return true // the variable is the index
			}
			if sx, ok := p.(*ast.SliceExpr); ok {
				if sx.X != child {
					return true
				}
				if _, isArray := t.p.Info.TypeOf(x).Underlying().(*types.Array); isArray {
					return false
				}
			}
			if _, isMap := t.p.Info.TypeOf(x).Underlying().(*types.Map); isMap {
				// A map field of an external struct indexed and only read
				// (chi's walkXFF(r.Header["X-Forwarded-For"], ...)): the
				// field is read, as r.Header.Values(k) reads it. Not a
				// map variable (whole maps of other packages are not
				// copied at every read), nor m[k] assigned or incremented
				// (the loop goes on with m[k] and finds the write).
				if sx, ok := x.(*ast.SelectorExpr); !ok || child != x || !t.isFieldSelector(sx) {
					return false
				}
			}
			child = p
			continue
		case *ast.StarExpr:
			// *x.F, *pkg.P: the pointer is read; what happens to its target
			// (a copy, `url := *req.URL` in gorilla/mux;
			// a write through it) is decided further up.
			child = p
			continue
		case *ast.CompositeLit, *ast.KeyValueExpr:
			return true
		default:
			return true
		}
	}
	return true
}

// isFieldSelector: x selects a field (not a package's variable).
func (t *transformer) isFieldSelector(x *ast.SelectorExpr) bool {
	sel, ok := t.p.Info.Selections[x]
	return ok && sel.Kind() == types.FieldVal
}

// siteVar declares a site and returns its variable name.
func (t *transformer) siteVar(name, pos string, exit bool) string {
	v := fmt.Sprintf("_capture_site_%d", t.nsite)
	t.nsite++
	ex := ""
	if exit {
		ex = ", Exit: true"
	}
	fmt.Fprintf(&t.gen, "var %s = %s.Site{Name: %q, Pos: %q%s}\n\n", v, t.probe, name, pos, ex)
	return v
}

// readOut routes a read of another package's variable through a helper
// that records READ_OUT (capture) or answers it from the log (replay).
func (t *transformer) readOut(x *ast.SelectorExpr, v *types.Var, name string) {
	typ, why := t.typeString(v.Type())
	if why != "" {
		t.errorf(x.Pos(), "reading "+name+" of "+why, "read it in an unobserved package and pass the value in")
		return
	}
	if t.reflectValueRead(x, name, v.Type()) {
		return
	}
	t.placeholder(v.Type())
	site := t.siteVar(name, t.sitePos(x.Pos()), false)
	h := strings.Replace(site, "_site_", "_read_", 1)
	enc := t.encStmt("v", v.Type())
	dec := t.decExpr(v.Type(), typ)
	// The call site passes &pkg.Var: the file keeps using its import.
	fmt.Fprintf(&t.gen, `// %s reads %s (%s).
func %s(p *%s) %s {
	s := %s.Out(&%s)
	if s == nil {
		return *p
	}
	if s.Replaying() {
		s.Read()
		v := %s
		s.ReadDone()
		return v
	}
	v := *p
	s.Reading()
	%s
	s.Read()
	return v
}

`, h, name, t.sitePos(x.Pos()), h, typ, typ, t.probe, site, dec, enc)
	span := int(x.End() - x.Pos())
	t.add(x.Pos(), x.Pos(), h+"(&", span)
	t.add(x.End(), x.End(), ")", span)
}

// encStmt is the statement that appends value expression e of type typ to
// the event being built by s: typed for scalars, reflective otherwise.
func (t *transformer) encStmt(e string, typ types.Type) string {
	if types.Identical(typ, types.Universe.Lookup("error").Type()) {
		return "s.Error(" + e + ")"
	}
	if b, ok := typ.Underlying().(*types.Basic); ok {
		switch {
		case b.Info()&types.IsBoolean != 0:
			return "s.Bool(bool(" + e + "))"
		case b.Info()&types.IsInteger != 0 && b.Info()&types.IsUnsigned != 0:
			return "s.Uint(uint64(" + e + "))"
		case b.Info()&types.IsInteger != 0:
			return "s.Int(int64(" + e + "))"
		case b.Info()&types.IsFloat != 0:
			return "s.Float(float64(" + e + "))"
		case b.Info()&types.IsString != 0:
			return "s.String(string(" + e + "))"
		}
	}
	if sl, ok := typ.Underlying().(*types.Slice); ok {
		if b, ok := sl.Elem().(*types.Basic); ok && b.Kind() == types.Byte {
			return "s.Bytes([]byte(" + e + "))"
		}
	}
	return t.probe + ".Encode(s, " + e + ")"
}

// decExpr is the expression that reads a value of type typ (printed as ts)
// in replay.
func (t *transformer) decExpr(typ types.Type, ts string) string {
	if types.Identical(typ, types.Universe.Lookup("error").Type()) {
		return "s.DecodeError()"
	}
	conv := func(e string) string {
		if _, named := types.Unalias(typ).(*types.Basic); named {
			return e
		}
		return ts + "(" + e + ")"
	}
	if b, ok := typ.Underlying().(*types.Basic); ok {
		switch {
		case b.Info()&types.IsBoolean != 0:
			return conv("s.DecodeBool()")
		case b.Info()&types.IsInteger != 0 && b.Info()&types.IsUnsigned != 0:
			return ts + "(s.DecodeUint())"
		case b.Info()&types.IsInteger != 0:
			return ts + "(s.DecodeInt())"
		case b.Info()&types.IsFloat != 0:
			return ts + "(s.DecodeFloat())"
		case b.Info()&types.IsString != 0:
			return conv("s.DecodeString()")
		}
	}
	if sl, ok := typ.Underlying().(*types.Slice); ok {
		if b, ok := sl.Elem().(*types.Basic); ok && b.Kind() == types.Byte {
			if _, named := types.Unalias(typ).(*types.Named); named {
				return ts + "(s.DecodeBytes())"
			}
			return "s.DecodeBytes()"
		}
	}
	return t.probe + ".Decode[" + ts + "](s)"
}

// fieldRead routes a read of a field of an external struct reached through a
// pointer (`req.URL`) through a helper that records READ_OUT: in replay the
// pointer is a placeholder whose fields mean nothing.
func (t *transformer) fieldRead(x *ast.SelectorExpr, sel *types.Selection, stack []ast.Node) {
	xt := t.p.Info.TypeOf(x.X)
	ptr, ok := xt.Underlying().(*types.Pointer)
	if !ok {
		return
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || t.observed[named.Obj().Pkg().Path()] || memoryHeader(named) {
		return
	}
	// A field promoted through embedded structs (goldmark's n.Destination
	// of an *ast.Link, promoted from the unexported ast.baseLink) is read
	// the same way: the helper selects it from the pointer as the code did.
	if !t.readContext(x, stack) {
		return
	}
	f := sel.Obj().(*types.Var)
	// In generic code the helper is generic over the enclosing type
	// parameters (golang-lru's expirable reads ent.ExpiresAt of an
	// *internal.Entry[K, V]; the read was left uninstrumented, and replay
	// read the zero fields of a placeholder).
	saved := t.allowTP
	t.allowTP = true
	defer func() { t.allowTP = saved }()
	tpDecl, tpArgs := "", ""
	if hasTypeParam(xt) || hasTypeParam(f.Type()) {
		var why string
		tpDecl, tpArgs, why = t.typeParams(t.enclosingTypeParams(stack))
		if why != "" || tpDecl == "" {
			t.errorf(x.Pos(), "reading field "+f.Name()+" in generic code whose enclosing function has "+why, "name every type parameter of the enclosing function (no _)")
			return
		}
	}
	rts, why := t.typeString(xt)
	if why != "" {
		return
	}
	fts, why := t.typeString(f.Type())
	if why != "" {
		t.errorf(x.Pos(), "reading field "+f.Name()+" of "+why, "read it in an unobserved package")
		return
	}
	if t.reflectValueRead(x, "field "+f.Name(), f.Type()) {
		return
	}
	// An interface field (resp.Body) may hold a dynamic type replay cannot
	// name (*http.cancelTimerBody): a stand-in of the field's type serves.
	t.placeholder(f.Type())
	name := "(" + types.TypeString(xt, fullQualifier) + ")." + f.Name()
	pos := t.sitePos(x.Sel.Pos())
	site := t.siteVar(name, pos, false)
	h := strings.Replace(site, "_site_", "_field_", 1)
	fmt.Fprintf(&t.gen, `// %s reads %s (%s).
func %s%s(_r %s) %s {
	s := %s.Out(&%s)
	if s == nil {
		return _r.%s
	}
	if s.Replaying() {
		s.Read()
		v := %s
		s.ReadDone()
		return v
	}
	v := _r.%s
	s.Reading()
	%s
	s.Read()
	return v
}

`, h, name, pos, h, tpDecl, rts, fts, t.probe, site, f.Name(), t.decExpr(f.Type(), fts), f.Name(), t.encStmt("v", f.Type()))
	span := int(x.End() - x.Pos())
	t.add(x.Pos(), x.Pos(), h+tpArgs+"(", span)
	t.add(x.X.End(), x.End(), ")", span)
}

// funcValueCall handles a call of a function value (a variable, field,
// parameter or result of function type): at run time, an observed function
// (a closure or method value of the observed set) runs for real, any other is
// an outcall.
func (t *transformer) funcValueCall(call *ast.CallExpr, stack []ast.Node) {
	if _, ok := t.p.Info.TypeOf(call.Fun).Underlying().(*types.Signature); !ok {
		return
	}
	name := "func value " + types.ExprString(call.Fun)
	t.outcall(call, callee{name: name, funcValue: true}, stack)
}

// ownedBuffer: &x where x is a variable or field of a pure value type
// (bytes.Buffer, strings.Builder) that the observed code holds directly —
// `fmt.Fprintf(&buf, ...)` writes into observed memory, natively.
func (t *transformer) ownedBuffer(a ast.Expr) bool {
	u, ok := ast.Unparen(a).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return false
	}
	switch x := ast.Unparen(u.X).(type) {
	case *ast.Ident:
		if v, ok := t.p.Info.Uses[x].(*types.Var); !ok || v.Pkg() != t.p.Types {
			return false
		}
	case *ast.SelectorExpr:
		sel, ok := t.p.Info.Selections[x]
		if !ok || sel.Kind() != types.FieldVal || !t.observed[sel.Obj().Pkg().Path()] {
			return false
		}
	default:
		return false
	}
	n, ok := types.Unalias(t.p.Info.TypeOf(u.X)).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return pureMethodTypes[n.Obj().Pkg().Path()+"."+n.Obj().Name()]
}
