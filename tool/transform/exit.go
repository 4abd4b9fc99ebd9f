package transform

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
)

// InstrumentExit prepares a file of an unobserved package that ends the
// process (a main package, or a test package's TestMain) so that the log is
// closed before the process exits: calls of os.Exit become probe.Exit, and
// function fn (e.g. "main"), if the file declares it, starts with
// `defer probe.Close()`. The file keeps its lines (it is not reformatted);
// it reports whether anything changed.
func InstrumentExit(filename string, src []byte, fn string) ([]byte, bool, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.ParseComments)
	if err != nil {
		return nil, false, err
	}
	const alias = "capture_probe"
	osName := ""
	var osImport *ast.ImportSpec
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "os" {
			osName = "os"
			if imp.Name != nil {
				osName = imp.Name.Name
			}
			osImport = imp
		}
	}
	osUses, exits := 0, 0 // selectors on the os package, and the os.Exit calls among them
	type ed struct {
		start, end int
		text       string
	}
	var eds []ed
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			if x.Recv == nil && x.Name.Name == fn && x.Body != nil {
				eds = append(eds, ed{off(x.Body.Lbrace) + 1, off(x.Body.Lbrace) + 1, " defer " + alias + ".Close();"})
			}
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && osName != "" {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == osName && sel.Sel.Name == "Exit" && id.Obj == nil {
					eds = append(eds, ed{off(sel.Pos()), off(sel.End()), alias + ".Exit"})
					exits++
				}
			}
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && osName != "" && id.Name == osName && id.Obj == nil {
				osUses++
			}
		}
		return true
	})
	if len(eds) == 0 {
		return src, false, nil
	}
	if exits > 0 && exits == osUses {
		// os.Exit was the file's only use of os: the import is unused now
		// (TestInstrumentExit), and stays for its initialisation only.
		if osImport.Name != nil {
			eds = append(eds, ed{off(osImport.Name.Pos()), off(osImport.Name.End()), "_"})
		} else {
			eds = append(eds, ed{off(osImport.Path.Pos()), off(osImport.Path.Pos()), "_ "})
		}
	}
	// The import goes on the package clause's line: lines stay where they were.
	pk := off(f.Name.End())
	eds = append(eds, ed{pk, pk, fmt.Sprintf("; import %s %q", alias, ProbeImport)})
	sort.Slice(eds, func(i, j int) bool { return eds[i].start < eds[j].start })
	var b bytes.Buffer
	last := 0
	for _, e := range eds {
		b.Write(src[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.Write(src[last:])
	return b.Bytes(), true, nil
}
