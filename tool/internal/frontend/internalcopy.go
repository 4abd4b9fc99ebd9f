package frontend

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Internal packages an external test package imports.
//
// go test compiles package P_test under the import path P_test and lets it
// import P's internal packages (toml_test imports toml/internal and
// internal/toml-test, cast_test imports cast/internal, go-toml's v2_test
// imports internal/assert); a package at P_test's path in an ordinary build
// may not, by Go's rule for internal packages. The replay build links P_test
// for the types it declares (linkXTests), and its test functions never run:
// what it needs of the internal packages is that its files compile. So the
// build gives it copies of them, under its own module at paths without an
// "internal" element (P_test/zz_capture_copy/internal_/...), and its import
// of each is rewritten to the copy. The copies are other packages than the
// originals: a type the test declares that is made of a type of theirs
// (a field of type internal.Format) would be another type than the
// capture's, so such a test package is still left out (typesMadeOf). A
// value of an internal package's own type in a log is rebuilt by its path,
// as the original's type. The copies' initialisation runs natively, on
// their own variables.

// copyDir is the directory, under an external test package's module, of
// the copies of the internal packages it imports.
const copyDir = "zz_capture_copy"

// internalCopy is one internal package copied for an external test
// package: the copy's import path, the original's directory and the
// copy's.
type internalCopy struct {
	path, from, to string
}

// internalCopies returns the internal packages of the main module that
// the package at importer (an external test package, whose module lies in
// dir) may not import but imports, directly or through the copies, by
// original import path; or why they cannot be copied.
func (s *Session) internalCopies(importer, dir string, imports []string) (map[string]internalCopy, string) {
	copies := map[string]internalCopy{}
	queue := append([]string(nil), imports...)
	for len(queue) > 0 {
		imp := queue[0]
		queue = queue[1:]
		if _, done := copies[imp]; done || internalImport(importer, []string{imp}) == "" {
			continue
		}
		if s.ModPath == "" || imp != s.ModPath && !strings.HasPrefix(imp, s.ModPath+"/") {
			return nil, fmt.Sprintf("it imports %s, which only go test lets it import", imp)
		}
		lp := s.Listed[imp]
		if lp == nil || lp.Error != nil || lp.Dir == "" {
			return nil, fmt.Sprintf("it imports %s, which is not in the build", imp)
		}
		if len(lp.CgoFiles) > 0 {
			return nil, fmt.Sprintf("it imports %s, which only go test lets it import (a cgo package, not copied)", imp)
		}
		rel := strings.Split(strings.TrimPrefix(strings.TrimPrefix(imp, s.ModPath), "/"), "/")
		for i, e := range rel {
			if e == "internal" {
				rel[i] = "internal_"
			}
		}
		r := strings.Join(rel, "/")
		copies[imp] = internalCopy{
			path: importer + "/" + copyDir + "/" + r,
			from: lp.Dir,
			to:   filepath.Join(dir, copyDir, filepath.FromSlash(r)),
		}
		fset := token.NewFileSet()
		entries, err := os.ReadDir(lp.Dir)
		if err != nil {
			return nil, err.Error()
		}
		for _, e := range entries {
			if n := e.Name(); e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(lp.Dir, e.Name()), nil, parser.ImportsOnly)
			if err != nil {
				continue // the build reports it
			}
			for _, is := range f.Imports {
				if p, err := strconv.Unquote(is.Path.Value); err == nil {
					queue = append(queue, p)
				}
			}
		}
	}
	return copies, ""
}

// typesMadeOf returns the position of the first type that the files
// (in dir) declare, or the first struct type literal they write, that is
// made of a type of one of the copied packages; "" if none.
func typesMadeOf(dir string, files []string, copies map[string]internalCopy) string {
	if len(copies) == 0 {
		return ""
	}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		names := map[string]bool{}
		for _, is := range file.Imports {
			p, err := strconv.Unquote(is.Path.Value)
			if _, copied := copies[p]; err != nil || !copied {
				continue
			}
			name := p[strings.LastIndexByte(p, '/')+1:]
			if is.Name != nil {
				name = is.Name.Name
			}
			names[name] = true
		}
		if len(names) == 0 {
			continue
		}
		found := ""
		madeOf := func(n ast.Node) {
			ast.Inspect(n, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && found == "" {
					if x, ok := sel.X.(*ast.Ident); ok && names[x.Name] {
						found = position(fset, sel.Pos())
					}
				}
				return found == ""
			})
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeSpec:
				madeOf(n.Type)
			case *ast.StructType:
				madeOf(n)
			}
			return found == ""
		})
		if found != "" {
			return found
		}
	}
	return ""
}

// writeInternalCopies writes each copy: the original's files but its
// tests, with imports of other copied packages rewritten, and the
// directories below it that hold no Go package (data it may embed).
func (s *Session) writeInternalCopies(copies map[string]internalCopy) error {
	paths := make([]string, 0, len(copies))
	for p := range copies {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		c := copies[p]
		if err := os.MkdirAll(c.to, 0o755); err != nil {
			return err
		}
		entries, err := os.ReadDir(c.from)
		if err != nil {
			return err
		}
		for _, e := range entries {
			from, to := filepath.Join(c.from, e.Name()), filepath.Join(c.to, e.Name())
			switch n := e.Name(); {
			case e.IsDir():
				if holdsGo(from) {
					continue // another package, copied if imported
				}
				if err := os.CopyFS(to, os.DirFS(from)); err != nil {
					return err
				}
			case !e.Type().IsRegular() || strings.HasSuffix(n, "_test.go"):
			case strings.HasSuffix(n, ".go"):
				src, err := os.ReadFile(from)
				if err != nil {
					return err
				}
				fset := token.NewFileSet()
				f, err := parser.ParseFile(fset, from, src, parser.ImportsOnly)
				if err == nil {
					src = rewriteImports(fset, f, src, copies)
				}
				if err := os.WriteFile(to, src, 0o644); err != nil {
					return err
				}
			default:
				src, err := os.ReadFile(from)
				if err != nil {
					return err
				}
				if err := os.WriteFile(to, src, 0o644); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// holdsGo reports whether the tree at dir holds a Go file or a go.mod.
func holdsGo(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".go") || d.Name() == "go.mod") {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// rewriteImports returns src (parsed as file) with its imports of copied
// packages naming the copies, in place: lines and columns stay.
func rewriteImports(fset *token.FileSet, file *ast.File, src []byte, copies map[string]internalCopy) []byte {
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	for _, is := range file.Imports {
		p, err := strconv.Unquote(is.Path.Value)
		c, copied := copies[p]
		if err != nil || !copied {
			continue
		}
		edits = append(edits, edit{fset.Position(is.Path.Pos()).Offset, fset.Position(is.Path.End()).Offset, strconv.Quote(c.path)})
	}
	if len(edits) == 0 {
		return src
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from > edits[j].from })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.from], append([]byte(e.text), out[e.to:]...)...)
	}
	return out
}
