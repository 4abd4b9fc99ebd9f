package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"github.com/rules-capture/rules_capture/tool/internal/load"
)

// whiteBoxWrites finds, in the in-package test files of an observed package,
// assignments to unexported fields of the package's own struct types
// (`p.clock = func() time.Time { ... }`) and to unexported package-level
// variables its non-test files refer to (`recovererErrorWriter = buf`).
// Replay does not see state that a test writes directly: the observed
// object keeps the field's old value in replay, the code reads the
// variable's old value, and takes another path, a false divergence
// (TestWhiteBoxWrites, TestWhiteBoxVariableWrites).
// The package and its tests are type-checked against the export data the
// front end listed; fields of types declared in test files (test doubles) do
// not count.
//
// A call of an unexported method of the package with a pointer receiver
// that assigns to the receiver's fields counts as such a write
// (gorilla/mux's tests call Router.useInterface), unless the transform made
// it an incall (incalls: T.m, transform.Output.TestIncalls): replay then
// performs the call, and the method changes the replayed object as it did
// the captured one.
//
// Each test runs in a process of its own, so a write only spoils the
// tests that reach it: rejected maps each top-level test whose function
// makes such a write, or refers to a function or method of the test files
// that does (directly or through others), to the message naming the first
// write. capture test runs the other tests (gorilla/mux: one helper of 66
// tests writes Route.useEncodedPath). Writes reached from elsewhere (a
// TestMain, an init function or a variable initialiser of the test files)
// would spoil every test: they are returned as pkgWide, and the package is
// rejected.
func whiteBoxWrites(listed map[string]*load.ListedPackage, lp *load.ListedPackage, incalls map[string]bool) (pkgWide []string, rejected map[string]string, err error) {
	if len(lp.TestGoFiles) == 0 {
		return nil, nil, nil
	}
	fset := token.NewFileSet()
	var files, tests []*ast.File
	for _, list := range [][]string{lp.GoFiles, lp.TestGoFiles} {
		for _, name := range list {
			f, err := parser.ParseFile(fset, filepath.Join(lp.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, nil, err
			}
			files = append(files, f)
			if strings.HasSuffix(name, "_test.go") {
				tests = append(tests, f)
			}
		}
	}
	imp := load.Importer(fset, listed, lp)
	info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: imp, Error: func(error) {}} // partial information suffices
	pkg, _ := conf.Check(lp.ImportPath, fset, files, info)
	inTests := func(obj types.Object) bool {
		return obj != nil && obj.Pkg() == pkg && strings.HasSuffix(fset.Position(obj.Pos()).Filename, "_test.go")
	}
	// Unexported package-level variables that the package's non-test
	// files refer to: a test that sets one (chi's middleware tests set
	// `recovererErrorWriter = buf`) changes what observed code reads
	// without an event, as a field write does. Exported ones are watched
	// (WRITE_IN before each top-level incall); variables only the tests use
	// are harmless.
	readByCode := map[*types.Var]bool{}
	for _, f := range files {
		if strings.HasSuffix(fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok && pkg != nil && v.Parent() == pkg.Scope() {
					readByCode[v] = true
				}
			}
			return true
		})
	}
	write := func(lhs ast.Expr) string {
		if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
			v, ok := info.Uses[id].(*types.Var)
			if !ok || v.Exported() || !readByCode[v] || inTests(v) {
				return ""
			}
			pos := fset.Position(id.Pos())
			pos.Filename = filepath.Join(filepath.Base(lp.Dir), filepath.Base(pos.Filename))
			return fmt.Sprintf("%s: a test writing the unexported variable %s of the observed package is not supported in an observed package: "+
				"replay does not see state that in-package tests set directly, so the code reads the variable's old value and takes another path; "+
				"set it through the package's API (an exported setter or option), or leave %s out of the observed set",
				pos, id.Name, lp.ImportPath)
		}
		x, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		sel := info.Selections[x]
		if sel == nil || sel.Kind() != types.FieldVal || sel.Obj().Exported() || sel.Obj().Pkg() != pkg {
			return ""
		}
		if inTests(sel.Obj()) {
			return "" // a field of a test double
		}
		recv := sel.Recv()
		if p, ok := recv.Underlying().(*types.Pointer); ok {
			recv = p.Elem()
		}
		pos := fset.Position(x.Sel.Pos())
		pos.Filename = filepath.Join(filepath.Base(lp.Dir), filepath.Base(pos.Filename))
		return fmt.Sprintf("%s: a test writing the unexported field %s of an observed %s is not supported in an observed package: "+
			"replay does not see state that in-package tests set directly, so the object keeps its old value and takes another path; "+
			"set it through the package's API (a constructor option), or leave %s out of the observed set",
			pos, x.Sel.Name, types.TypeString(recv, types.RelativeTo(nil)), lp.ImportPath)
	}
	// Unexported methods of the package (non-test files) with a pointer
	// receiver that assign to the receiver's fields (gorilla/mux's
	// `func (r *Router) useInterface(mw middleware) { r.middlewares =
	// append(...) }`) and that are no incall (a signature the transform
	// cannot wrap): a test calling one changes observed state without an
	// incall, which replay does not run. Read-only ones are harmless: the
	// test's own code does not run in replay.
	mutators := map[types.Object]bool{}
	for _, f := range files {
		if strings.HasSuffix(fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Body == nil || fd.Name.IsExported() || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
				continue
			}
			if _, ptr := fd.Recv.List[0].Type.(*ast.StarExpr); !ptr {
				continue
			}
			recv := info.Defs[fd.Recv.List[0].Names[0]]
			if recv == nil || incalls[recvTypeName(recv.Type())+"."+fd.Name.Name] {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				for _, l := range assigned(n) {
					if root := rootIdent(l); root != nil && info.Uses[root] == recv && root != ast.Unparen(l) {
						mutators[info.Defs[fd.Name]] = true
					}
				}
				return true
			})
		}
	}
	call := func(c *ast.CallExpr) string {
		sx, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		fn, ok := info.Uses[sx.Sel].(*types.Func)
		if !ok || !mutators[fn] {
			return ""
		}
		recv := fn.Type().(*types.Signature).Recv().Type()
		pos := fset.Position(sx.Sel.Pos())
		pos.Filename = filepath.Join(filepath.Base(lp.Dir), filepath.Base(pos.Filename))
		return fmt.Sprintf("%s: a test calling the unexported method %s of an observed %s, which changes the object, is not supported in an observed package: "+
			"its signature cannot be an incall (docs/limitations.md), so replay neither runs it nor sees the state it changes; "+
			"call the package's exported API instead, or leave %s out of the observed set",
			pos, fn.Name(), types.TypeString(recv, types.RelativeTo(nil)), lp.ImportPath)
	}
	// Per declaration of the test files (a function, a method, a type
	// whose methods may be called through an interface, or nil for init
	// functions and variable initialisers, which run before every test):
	// its first write, and the declarations of the test files it refers to.
	type decl struct {
		write string
		refs  []types.Object
	}
	decls := map[types.Object]*decl{}
	var order []types.Object // in source order, for stable messages
	declOf := func(key types.Object) *decl {
		d := decls[key]
		if d == nil {
			d = &decl{}
			decls[key] = d
			order = append(order, key)
		}
		return d
	}
	for _, f := range tests {
		for _, d := range f.Decls {
			var key types.Object
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.Name != "init" {
					key = info.Defs[d.Name]
				}
				if fn, ok := key.(*types.Func); ok {
					if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
						t := recv.Type()
						if p, ok := t.(*types.Pointer); ok {
							t = p.Elem()
						}
						if n, ok := t.(*types.Named); ok {
							tn := declOf(n.Obj())
							tn.refs = append(tn.refs, fn)
						}
					}
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue // types and constants run nothing
				}
			}
			dd := declOf(key)
			ast.Inspect(d, func(n ast.Node) bool {
				switch s := n.(type) {
				case *ast.CallExpr:
					if m := call(s); m != "" && dd.write == "" {
						dd.write = m
					}
				case *ast.Ident:
					switch obj := info.Uses[s].(type) {
					case *types.Func, *types.TypeName:
						if inTests(obj) && obj != key {
							dd.refs = append(dd.refs, obj)
						}
					}
				}
				for _, l := range assigned(n) {
					if m := write(l); m != "" && dd.write == "" {
						dd.write = m
					}
				}
				return true
			})
		}
	}
	// reaches returns the first write a declaration makes or reaches.
	reaches := func(key types.Object) string {
		seen := map[types.Object]bool{key: true}
		queue := []types.Object{key}
		for len(queue) > 0 {
			d := decls[queue[0]]
			queue = queue[1:]
			if d == nil {
				continue
			}
			if d.write != "" {
				return d.write
			}
			for _, r := range d.refs {
				if !seen[r] {
					seen[r] = true
					queue = append(queue, r)
				}
			}
		}
		return ""
	}
	for _, key := range order {
		fn, _ := key.(*types.Func)
		switch {
		case key == nil || fn != nil && fn.Name() == "TestMain":
			if m := reaches(key); m != "" {
				pkgWide = append(pkgWide, m)
			}
		case fn != nil && fn.Type().(*types.Signature).Recv() == nil && strings.HasPrefix(fn.Name(), "Test"):
			if m := reaches(key); m != "" {
				if rejected == nil {
					rejected = map[string]string{}
				}
				rejected[fn.Name()] = m
			}
		}
	}
	return pkgWide, rejected, nil
}

// recvTypeName is the name of a method's receiver type (T for T and *T).
func recvTypeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// rootIdent returns the variable a location expression starts from
// (r in r.f, r.f[i], r.f.g, *r), or nil.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// assigned returns the expressions n assigns to: the left side of an
// assignment that is not a declaration (`=`, `+=`, ...), or the operand of
// `++`/`--`.
func assigned(n ast.Node) []ast.Expr {
	switch s := n.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE {
			return s.Lhs
		}
	case *ast.IncDecStmt:
		return []ast.Expr{s.X}
	}
	return nil
}
