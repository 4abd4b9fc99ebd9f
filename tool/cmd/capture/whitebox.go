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

// whiteBoxWrites finds, in the in-package test files of an observed
// package, assignments to unexported fields of the package's own struct
// types (`p.clock = func() time.Time { ... }`). Replay does not see state
// that a test writes directly: the observed object keeps the field's old
// value in replay and takes another path, a false divergence (study fault
// F11). So capture test rejects such a package up front, naming each
// write. The package and its tests are type-checked against the export
// data the front end listed; fields of types declared in test files (test
// doubles) do not count.
func whiteBoxWrites(listed map[string]*load.ListedPackage, lp *load.ListedPackage) ([]string, error) {
	if len(lp.TestGoFiles) == 0 {
		return nil, nil
	}
	fset := token.NewFileSet()
	var files, tests []*ast.File
	for _, list := range [][]string{lp.GoFiles, lp.TestGoFiles} {
		for _, name := range list {
			f, err := parser.ParseFile(fset, filepath.Join(lp.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
			if strings.HasSuffix(name, "_test.go") {
				tests = append(tests, f)
			}
		}
	}
	imp := load.Importer(fset, listed, lp)
	info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: imp, Error: func(error) {}} // partial information suffices
	pkg, _ := conf.Check(lp.ImportPath, fset, files, info)
	var out []string
	check := func(lhs ast.Expr) {
		x, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
		if !ok {
			return
		}
		sel := info.Selections[x]
		if sel == nil || sel.Kind() != types.FieldVal || sel.Obj().Exported() || sel.Obj().Pkg() != pkg {
			return
		}
		if strings.HasSuffix(fset.Position(sel.Obj().Pos()).Filename, "_test.go") {
			return // a field of a test double
		}
		recv := sel.Recv()
		if p, ok := recv.Underlying().(*types.Pointer); ok {
			recv = p.Elem()
		}
		pos := fset.Position(x.Sel.Pos())
		pos.Filename = filepath.Join(filepath.Base(lp.Dir), filepath.Base(pos.Filename))
		out = append(out, fmt.Sprintf("%s: a test writing the unexported field %s of an observed %s is not supported in an observed package: "+
			"replay does not see state that in-package tests set directly, so the object keeps its old value and takes another path; "+
			"set it through the package's API (a constructor option), or leave %s out of the observed set",
			pos, x.Sel.Name, types.TypeString(recv, types.RelativeTo(nil)), lp.ImportPath))
	}
	for _, f := range tests {
		ast.Inspect(f, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.AssignStmt:
				if s.Tok != token.DEFINE {
					for _, l := range s.Lhs {
						check(l)
					}
				}
			case *ast.IncDecStmt:
				check(s.X)
			}
			return true
		})
	}
	return out, nil
}
