package frontend

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/rules-capture/rules_capture/tool/internal/load"
)

// declaredWhere finds, in the sources of the observed packages, the types
// the replay build cannot link although a log may name them as the dynamic
// type of a value observed code reflects over: types declared inside a
// function (of any file) and types of the package's _test.go files. The
// harness passes what it finds to replay (harnessgen.Declared), whose note
// for such a value then says where the type is declared. Keys are the
// names a log gives a type: "import/path.T", and "pkgname.T" as type
// literals spell it. The in-package test files of the packages in
// linkedTests are in the replay build (linkTestFiles), and so are the
// external test packages it names ("P_test", linkXTests): a type of theirs
// that replay still cannot rebuild shares its name with another type of
// the binary that reflection tells apart from it.
func declaredWhere(pkgs []*load.ListedPackage, linkedTests map[string]bool) map[string]string {
	const local, inTest = "inside a function", "in a _test.go file"
	found := map[string]map[string][]string{} // key -> local or inTest -> positions
	add := func(key, kind, pos string) {
		if found[key] == nil {
			found[key] = map[string][]string{}
		}
		found[key][kind] = append(found[key][kind], pos)
	}
	for _, lp := range pkgs {
		fset := token.NewFileSet()
		scan := func(files []string, test bool, path, name string) {
			for _, f := range files {
				file, err := parser.ParseFile(fset, filepath.Join(lp.Dir, f), nil, parser.SkipObjectResolution)
				if err != nil {
					continue // the build reports it
				}
				for _, d := range file.Decls {
					switch d := d.(type) {
					case *ast.GenDecl:
						if !test {
							continue // a package-level type of the package: linked and registered
						}
						for _, s := range d.Specs {
							if ts, ok := s.(*ast.TypeSpec); ok {
								add(path+"."+ts.Name.Name, inTest, position(fset, ts.Pos()))
								add(name+"."+ts.Name.Name, inTest, position(fset, ts.Pos()))
							}
						}
					case *ast.FuncDecl:
						if d.Body == nil {
							continue
						}
						ast.Inspect(d.Body, func(n ast.Node) bool {
							if ts, ok := n.(*ast.TypeSpec); ok {
								add(path+"."+ts.Name.Name, local, position(fset, ts.Pos()))
								add(name+"."+ts.Name.Name, local, position(fset, ts.Pos()))
							}
							return true
						})
					}
				}
			}
		}
		scan(lp.GoFiles, false, lp.ImportPath, lp.Name)
		scan(lp.TestGoFiles, true, lp.ImportPath, lp.Name)
		scan(lp.XTestGoFiles, true, lp.ImportPath+"_test", lp.Name+"_test")
	}
	linkedKeys := map[string]bool{}
	for _, lp := range pkgs {
		if linkedTests[lp.ImportPath] {
			linkedKeys[lp.ImportPath] = true
			linkedKeys[lp.Name] = true
		}
		if linkedTests[lp.ImportPath+"_test"] {
			linkedKeys[lp.ImportPath+"_test"] = true
			linkedKeys[lp.Name+"_test"] = true
		}
	}
	out := map[string]string{}
	for k, kinds := range found {
		var ws []string
		for _, kind := range []string{local, inTest} {
			if ps := kinds[kind]; len(ps) > 0 {
				sort.Strings(ps)
				ws = append(ws, kind+" ("+strings.Join(slices.Compact(ps), ", ")+")")
			}
		}
		out[k] = strings.Join(ws, " or ")
		switch pkg := k[:strings.LastIndexByte(k, '.')]; {
		case linkedKeys[pkg]:
			out[k] += ", which the replay build links; other types of the binary have its name, and reflection tells them apart"
		case len(kinds[inTest]) > 0:
			out[k] += ", which replay does not link"
		}
	}
	return out
}

func position(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}
