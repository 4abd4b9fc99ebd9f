package transform

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// Addresses turned into data (docs/design/boundary-model.md, "Addresses
// as data").
//
// Observed code may turn an address into an integer: go-spew prints the
// pointers it dumps (`printHexPtr(w, v.Pointer())`) and detects cycles and
// shared objects by a map keyed by them. The integer is an input of the
// code, as a clock read is: replay's objects live elsewhere, so code that
// prints, compares, sorts or hashes it behaves otherwise in replay. The
// transform routes such reads through the probe, which records the integer
// in the capture (a CALL_OUT naming the object, a RETURN_OUT with the
// integer) and answers it from the log in replay: reflect.Value's Pointer
// and UnsafeAddr, and conversions of an unsafe.Pointer to an integer type
// (`uintptr(unsafe.Pointer(p))`).
//
// An integer that becomes a pointer again (go-spew's bypass.go reads a
// reflect.Value's flags at `unsafe.Pointer(uintptr(unsafe.Pointer(v)) +
// flagValOffset)`; `reflect.NewAt(t, unsafe.Pointer(v.UnsafeAddr()))`) must
// stay the real address: in replay the recorded one points nowhere. So a
// read stays native wherever its value may reach, through arithmetic,
// assignments, the package's own calls and returns, a conversion back to a
// pointer, an external function's uintptr parameter (a system call's
// argument), or a reflect.SliceHeader's or StringHeader's Data field
// (addrFlows). The analysis is per package and flow-insensitive: a variable
// that one statement makes from an address and another turns into a
// pointer keeps every read that reaches it native.

// addrSource reports whether e turns an address into an integer, and
// names the read for its site: "(reflect.Value).Pointer",
// "(reflect.Value).UnsafeAddr" or "uintptr(unsafe.Pointer)".
func (t *transformer) addrSource(e ast.Expr) (string, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return "", false
	}
	info := t.p.Info
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		if len(call.Args) != 1 || !isUintptr(tv.Type) {
			return "", false
		}
		if at := info.TypeOf(call.Args[0]); at != nil && isUnsafePointer(at) {
			return "uintptr(unsafe.Pointer)", true
		}
		return "", false
	}
	se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) != 0 {
		return "", false
	}
	sel, ok := info.Selections[se]
	if !ok || sel.Kind() != types.MethodVal || types.IsInterface(sel.Recv()) || !isReflectValue(sel.Recv()) {
		return "", false
	}
	switch name := sel.Obj().Name(); name {
	case "Pointer", "UnsafeAddr":
		return "(reflect.Value)." + name, true
	}
	return "", false
}

func isUintptr(typ types.Type) bool {
	b, ok := typ.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Uintptr
}

// addrState is the package's address analysis (addrFlows), made once.
type addrState struct {
	done   bool
	native map[*ast.CallExpr]bool // reads whose integer may become a pointer again
}

// addrNative reports whether the address read call must stay native.
func (t *transformer) addrNative(call *ast.CallExpr) bool {
	if !t.addrs.done {
		t.addrs.done = true
		t.addrs.native = t.addrFlows()
	}
	return t.addrs.native[call]
}

// addrBack stands for memory written through a converted pointer.
type addrBack struct{}

// funcNode stands for the results of a function of the package (its
// declaration's object or its literal).
type funcNode struct{ n any }

// addrFlows finds the address reads of the package whose value may become
// a pointer again. Nodes are the package's variables and fields
// (types.Object), its functions' results (funcNode) and the reads
// themselves (*ast.CallExpr); an edge a -> b says a's value may flow into
// b. The nodes that turn into pointers (back) taint every node that
// reaches them.
func (t *transformer) addrFlows() map[*ast.CallExpr]bool {
	info := t.p.Info
	edges := map[any][]any{} // reversed: to -> from
	back := map[any]bool{addrBack{}: true}
	// operands collects what the value of e may carry: the variables and
	// fields it reads (a field by its declaration, whatever the object
	// holding it; a container for its elements, not the index), the
	// address reads it makes and the package's function results it uses.
	// An address read stands for itself: the pointer it converts carries
	// no integer. What an external call returns may be made of its
	// receiver and arguments.
	var operands func(e ast.Expr) []any
	operands = func(e ast.Expr) []any {
		var out []any
		add := func(es ...ast.Expr) {
			for _, x := range es {
				out = append(out, operands(x)...)
			}
		}
		switch x := e.(type) {
		case *ast.ParenExpr:
			add(x.X)
		case *ast.Ident:
			if o, ok := info.Uses[x].(*types.Var); ok {
				out = append(out, types.Object(o))
			}
		case *ast.SelectorExpr:
			if s, ok := info.Selections[x]; ok {
				if s.Kind() == types.FieldVal {
					out = append(out, s.Obj())
				} else {
					add(x.X) // a method value: bound to its receiver
				}
			} else if o, ok := info.Uses[x.Sel].(*types.Var); ok {
				out = append(out, types.Object(o)) // another package's variable
			}
		case *ast.IndexExpr:
			add(x.X)
		case *ast.SliceExpr:
			add(x.X)
		case *ast.StarExpr:
			add(x.X)
		case *ast.UnaryExpr:
			add(x.X)
		case *ast.BinaryExpr:
			add(x.X, x.Y)
		case *ast.TypeAssertExpr:
			add(x.X)
		case *ast.KeyValueExpr:
			add(x.Key, x.Value)
		case *ast.CompositeLit:
			add(x.Elts...)
		case *ast.CallExpr:
			if _, ok := t.addrSource(x); ok {
				out = append(out, x)
				break
			}
			if t.isConversion(x) {
				add(x.Args...)
				break
			}
			if fn := t.packageFunc(x); fn != nil {
				out = append(out, funcNode{fn}) // its arguments flow into its parameters (addrStmt)
				break
			}
			if lit, ok := ast.Unparen(x.Fun).(*ast.FuncLit); ok {
				out = append(out, funcNode{lit})
				break
			}
			if se, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
				if s, ok := info.Selections[se]; ok && s.Kind() == types.MethodVal {
					add(se.X)
				}
			} else if _, ok := info.Uses[identOf(x.Fun)].(*types.Var); ok {
				add(x.Fun) // a function value
			}
			add(x.Args...)
		}
		return out
	}
	// targets: the nodes a write to e stores into (a container for its
	// elements, a pointer variable for what it points to).
	var targets func(e ast.Expr) []any
	targets = func(e ast.Expr) []any {
		switch x := e.(type) {
		case *ast.ParenExpr:
			return targets(x.X)
		case *ast.Ident:
			if o, ok := info.Defs[x].(*types.Var); ok {
				return []any{types.Object(o)}
			}
			if o, ok := info.Uses[x].(*types.Var); ok {
				return []any{types.Object(o)}
			}
		case *ast.SelectorExpr:
			if s, ok := info.Selections[x]; ok && s.Kind() == types.FieldVal {
				if headerData(s) {
					back[s.Obj()] = true
				}
				return []any{s.Obj()}
			}
			if o, ok := info.Uses[x.Sel].(*types.Var); ok {
				return []any{types.Object(o)}
			}
		case *ast.IndexExpr:
			return targets(x.X)
		case *ast.StarExpr:
			// *(*uintptr)(p) = v: a write into memory the code reached
			// by converting a pointer, which may be anything.
			if c, ok := ast.Unparen(x.X).(*ast.CallExpr); ok && t.isConversion(c) {
				return []any{addrBack{}}
			}
			return operands(x.X)
		}
		return nil
	}
	flow := func(from []any, to []any) {
		for _, b := range to {
			edges[b] = append(edges[b], from...)
		}
	}
	var funcs []any // enclosing functions, innermost last
	for _, f := range t.p.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				return true
			}
			switch x := n.(type) {
			case *ast.FuncDecl:
				if x.Body == nil {
					return false
				}
				var fn any = x
				if o, ok := info.Defs[x.Name].(*types.Func); ok {
					fn = o
				}
				funcs = append(funcs, fn)
				ast.Inspect(x.Body, func(m ast.Node) bool { return t.addrStmt(m, &funcs, operands, targets, flow, back) })
				funcs = funcs[:len(funcs)-1]
				return false
			}
			// Package-level declarations, and function literals in them.
			return t.addrStmt(n, &funcs, operands, targets, flow, back)
		})
	}
	// Every node that reaches back is tainted.
	tainted := map[any]bool{}
	var work []any
	for b := range back {
		tainted[b] = true
		work = append(work, b)
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, a := range edges[b] {
			if !tainted[a] {
				tainted[a] = true
				work = append(work, a)
			}
		}
	}
	native := map[*ast.CallExpr]bool{}
	for n := range tainted {
		if c, ok := n.(*ast.CallExpr); ok {
			native[c] = true
		}
	}
	return native
}

// addrStmt adds the flows of node n (a statement or expression inside a
// function, whose enclosing functions are *funcs) to the analysis.
func (t *transformer) addrStmt(n ast.Node, funcs *[]any, operands func(ast.Expr) []any, targets func(ast.Expr) []any, flow func(from, to []any), back map[any]bool) bool {
	info := t.p.Info
	switch x := n.(type) {
	case *ast.FuncLit:
		*funcs = append(*funcs, x)
		ast.Inspect(x.Body, func(m ast.Node) bool { return t.addrStmt(m, funcs, operands, targets, flow, back) })
		*funcs = (*funcs)[:len(*funcs)-1]
		return false
	case *ast.AssignStmt:
		for _, l := range x.Lhs {
			if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
				flow(operands(ix.Index), targets(ix.X)) // a map's keys
			}
		}
		if len(x.Lhs) == len(x.Rhs) {
			for i := range x.Lhs {
				flow(operands(x.Rhs[i]), targets(x.Lhs[i]))
			}
		} else {
			var to []any
			for _, l := range x.Lhs {
				to = append(to, targets(l)...)
			}
			for _, r := range x.Rhs {
				flow(operands(r), to)
			}
		}
	case *ast.ValueSpec:
		for i, v := range x.Values {
			var to []any
			if len(x.Values) == len(x.Names) {
				to = targets(x.Names[i])
			} else {
				for _, nm := range x.Names {
					to = append(to, targets(nm)...)
				}
			}
			flow(operands(v), to)
		}
	case *ast.RangeStmt:
		var to []any
		if x.Key != nil {
			to = append(to, targets(x.Key)...)
		}
		if x.Value != nil {
			to = append(to, targets(x.Value)...)
		}
		flow(operands(x.X), to)
	case *ast.SendStmt:
		flow(operands(x.Value), targets(x.Chan))
	case *ast.ReturnStmt:
		if len(*funcs) > 0 {
			fn := funcNode{(*funcs)[len(*funcs)-1]}
			for _, r := range x.Results {
				flow(operands(r), []any{fn})
			}
			// Named results carry their values out too.
			if len(x.Results) == 0 {
				if f, ok := (*funcs)[len(*funcs)-1].(*types.Func); ok {
					res := f.Type().(*types.Signature).Results()
					for i := 0; i < res.Len(); i++ {
						flow([]any{types.Object(res.At(i))}, []any{fn})
					}
				}
			}
		}
	case *ast.CallExpr:
		if t.isConversion(x) {
			if tv := info.Types[x.Fun]; isUnsafePointer(tv.Type) && len(x.Args) == 1 {
				if at := info.TypeOf(x.Args[0]); at != nil && isInteger(at) {
					for _, o := range operands(x.Args[0]) {
						back[o] = true
					}
				}
			}
			return true
		}
		fn := t.packageFunc(x)
		var sig *types.Signature
		if fn != nil {
			sig, _ = fn.Type().(*types.Signature)
		} else if tv, ok := info.Types[x.Fun]; ok {
			sig, _ = tv.Type.Underlying().(*types.Signature)
		}
		if sig == nil {
			return true
		}
		if fn != nil && sig.Recv() != nil {
			if se, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
				flow(operands(se.X), []any{types.Object(sig.Recv())})
			}
		}
		if tv, ok := info.Types[x.Fun]; ok && tv.IsBuiltin() {
			return true // append's value is its operands' (operands); the others keep none
		}
		params := sig.Params()
		for i, a := range x.Args {
			if params.Len() == 0 {
				break
			}
			j := min(i, params.Len()-1)
			p := params.At(j)
			pt := p.Type()
			if sig.Variadic() && j == params.Len()-1 && x.Ellipsis == token.NoPos {
				pt = pt.(*types.Slice).Elem()
			}
			switch {
			case fn != nil:
				flow(operands(a), []any{types.Object(p)})
			case isUintptr(pt):
				// Another package's uintptr parameter (a system call's
				// argument) may be a pointer to it.
				for _, o := range operands(a) {
					back[o] = true
				}
			}
		}
	}
	return true
}

// headerData: s selects the Data field of a reflect.SliceHeader or
// reflect.StringHeader, an address that the header turns into a pointer.
func headerData(s *types.Selection) bool {
	if s.Obj().Name() != "Data" {
		return false
	}
	recv := s.Recv()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	n, ok := types.Unalias(recv).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "reflect" &&
		(n.Obj().Name() == "SliceHeader" || n.Obj().Name() == "StringHeader")
}

// isConversion: call converts its argument to a type.
func (t *transformer) isConversion(call *ast.CallExpr) bool {
	tv, ok := t.p.Info.Types[call.Fun]
	return ok && tv.IsType()
}

// packageFunc returns the function or method of the package that call
// calls statically (its generic origin), or nil.
func (t *transformer) packageFunc(call *ast.CallExpr) *types.Func {
	fun := ast.Unparen(call.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	} else if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	var fn *types.Func
	switch x := fun.(type) {
	case *ast.Ident:
		fn, _ = t.p.Info.Uses[x].(*types.Func)
	case *ast.SelectorExpr:
		if s, ok := t.p.Info.Selections[x]; ok {
			if s.Kind() == types.FieldVal {
				return nil
			}
			fn, _ = s.Obj().(*types.Func)
		} else {
			fn, _ = t.p.Info.Uses[x.Sel].(*types.Func)
		}
	}
	if fn == nil || fn.Pkg() != t.p.Types {
		return nil
	}
	return fn.Origin()
}

// addressRead rewrites an address read of observed code (addrSource) whose
// integer stays data into a call of the probe that records it (capture)
// or answers it from the log (replay): v.Pointer() becomes
// _capture_addr_N(v) (probe.PointerOf), v.UnsafeAddr()
// _capture_addr_N(v) (probe.UnsafeAddrOf), and uintptr(p) (p an
// unsafe.Pointer) uintptr(_capture_addr_N(p)) (probe.AddressOf). It
// reports whether it did.
func (t *transformer) addressRead(call *ast.CallExpr, name string) bool {
	if t.addrNative(call) {
		return false
	}
	site := t.siteVar(name, t.sitePos(call.Pos()), false)
	helper := fmt.Sprintf("_capture_addr_%s", site[len("_capture_site_"):])
	span := int(call.End() - call.Pos())
	switch name {
	case "uintptr(unsafe.Pointer)":
		unsafePkg := t.alias("unsafe", "unsafe")
		fmt.Fprintf(&t.gen, "// %s turns an address into an integer (%s).\nfunc %s(p %s.Pointer) uintptr {\n\treturn %s.AddressOf(&%s, p)\n}\n\n",
			helper, t.sitePos(call.Pos()), helper, unsafePkg, t.probe, site)
		arg := call.Args[0]
		t.add(arg.Pos(), arg.Pos(), helper+"(", span)
		t.add(arg.End(), arg.End(), ")", span)
	default:
		se := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		reflectPkg := t.alias("reflect", "reflect")
		fn := "PointerOf"
		if name == "(reflect.Value).UnsafeAddr" {
			fn = "UnsafeAddrOf"
		}
		fmt.Fprintf(&t.gen, "// %s turns an address into an integer (%s).\nfunc %s(v %s.Value) uintptr {\n\treturn %s.%s(&%s, v)\n}\n\n",
			helper, t.sitePos(call.Pos()), helper, reflectPkg, t.probe, fn, site)
		t.add(call.Pos(), call.Pos(), helper+"(", span)
		t.add(se.X.End(), call.End(), ")", span)
	}
	return true
}

// printsAddress reports whether call, of a function of package fmt, may
// print an address: an argument that is a pointer, channel, function or
// unsafe.Pointer (fmt prints a pointer to a struct, array, slice or map at
// the top level as &{...}, one inside a value as its address), and any
// pointer, slice or map where a constant format holds %p. Such a call is
// an outcall, not native: replay answers the capture's text, and checks
// that the arguments are the same objects.
func (t *transformer) printsAddress(call *ast.CallExpr, fn *types.Func) bool {
	if fn.Pkg() == nil || fn.Pkg().Path() != "fmt" {
		return false
	}
	verbP := false
	for _, a := range call.Args {
		if tv, ok := t.p.Info.Types[a]; ok && tv.Value != nil && tv.Value.Kind() == constant.String &&
			strings.Contains(constant.StringVal(tv.Value), "%p") {
			verbP = true
		}
	}
	for _, a := range call.Args {
		typ := t.p.Info.TypeOf(a)
		if typ == nil {
			continue
		}
		if verbP {
			switch typ.Underlying().(type) {
			case *types.Pointer, *types.Slice, *types.Map:
				return true
			}
		}
		if mayPrintAddress(typ, true, map[types.Type]bool{}) {
			return true
		}
	}
	return false
}

// mayPrintAddress: fmt may print a value of type typ (at the top level of
// an argument when top) as, or with, an address. A type with a String or
// Error method prints what the method returns, which is observed code.
func mayPrintAddress(typ types.Type, top bool, seen map[types.Type]bool) bool {
	if seen[typ] {
		return false
	}
	seen[typ] = true
	if n, ok := types.Unalias(typ).(*types.Named); ok {
		ms := types.NewMethodSet(types.NewPointer(n))
		if ms.Lookup(n.Obj().Pkg(), "String") != nil || ms.Lookup(n.Obj().Pkg(), "Error") != nil {
			return false
		}
	}
	switch u := typ.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Chan, *types.Signature:
		return true
	case *types.Pointer:
		if !top {
			return true
		}
		switch u.Elem().Underlying().(type) {
		case *types.Struct, *types.Array, *types.Slice, *types.Map:
			return mayPrintAddress(u.Elem(), false, seen)
		}
		return true
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if mayPrintAddress(u.Field(i).Type(), false, seen) {
				return true
			}
		}
	case *types.Array:
		return mayPrintAddress(u.Elem(), false, seen)
	case *types.Slice:
		return mayPrintAddress(u.Elem(), false, seen)
	case *types.Map:
		return mayPrintAddress(u.Key(), false, seen) || mayPrintAddress(u.Elem(), false, seen)
	}
	return false
}

// isInteger: typ is an integer type (the only values that convert to an
// unsafe.Pointer besides pointers).
func isInteger(typ types.Type) bool {
	b, ok := typ.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// identOf returns the identifier e names, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}
