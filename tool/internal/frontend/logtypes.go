package frontend

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rules-capture/rules_capture/tool/internal/load"
)

// The replay build links the test packages whose types the logs name.
//
// A log was written by one test binary: the package whose tests ran, its
// in-package test files, its external test package, and what they import.
// Its values and recorded reflect.Types may be of any type that binary
// held, not only of the observed packages: expr's tests of package checker
// hand `mock.Env` (package test/mock, which only tests import) and
// `checker_test.Env` to observed code in package ast, whose
// `SetNature(reflect.Type)` records them. Native reflection in replay needs
// those very types (docs/design/reflection.md), so the replay build holds
// what the logs name: every name a log gives a type is written with full
// import paths (value.TypeName), so the packages of the module under test
// that the logs name are found in their values (moduleNames), and for each
// the replay build gets
//
//   - the package itself, imported by the harness, with a generated file
//     that keeps its types and functions (and the types declared inside
//     them) in the binary (keepFile), when a log names a package-level type
//     of its non-test files;
//   - its in-package test files (linkTestFiles), when a log names a type
//     that is not a package-level type of its non-test files (declared in
//     a _test.go file or inside a function), or names its external test
//     package (which may use what they export);
//   - its external test package (linkXTests), when a log names it.
//
// The observed packages' test files and external test packages are linked
// whatever the logs name, as before. Only packages of the module under
// test are added: its own code, whose tests wrote the logs.

// moduleNames adds to names the qualified names of types, path.Name with
// path in module modPath (a package of the module or its external test
// package, ".../p_test"), that s (a log's value bytes, a receiver type or a
// site) contains: names[path][Name]. A string value that happens to hold
// such a name only adds a package to consider.
func moduleNames(s string, modPath string, names map[string]map[string]bool) {
	if modPath == "" {
		return
	}
	for i := 0; ; {
		j := strings.Index(s[i:], modPath)
		if j < 0 {
			return
		}
		start := i + j
		end := start + len(modPath)
		i = end
		// What precedes may be anything: in the encoding, a name's length
		// (a name of 50 bytes follows a '2'). A longer path that ends with
		// the module's only adds a package to consider.
		for end < len(s) && (isPathByte(s[end]) || s[end] == '.') {
			end++
		}
		tok := s[start:end]
		dot := strings.LastIndexByte(tok, '.')
		if dot <= len(modPath)-1 {
			continue
		}
		path, name := tok[:dot], tok[dot+1:]
		if path != modPath && !strings.HasPrefix(path, modPath+"/") && path != modPath+"_test" {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(name); !unicode.IsLetter(r) && r != '_' {
			continue
		}
		for k, r := range name {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
				name = name[:k]
				break
			}
		}
		if names[path] == nil {
			names[path] = map[string]bool{}
		}
		names[path][name] = true
		i = start + len(path) + 1
	}
}

// isPathByte reports whether c may be part of an import path element as
// type names spell them (not '.', which also ends a path).
func isPathByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '/' || c == '~' || c == '+'
}

// namedTestPackages returns, for the names the logs give types of the
// module (moduleNames), the packages of the module to list into the replay
// build: each named package, and for an external test package the package
// it tests. Only paths the go command can list: a directory of the module
// that holds Go files.
func (s *Session) namedTestPackages(names map[string]map[string]bool) []string {
	seen := map[string]bool{}
	for p := range names {
		p = strings.TrimSuffix(p, "_test")
		if p != s.ModPath && !strings.HasPrefix(p, s.ModPath+"/") {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, s.ModPath), "/")
		if rel != "" && (filepath.Clean(rel) != filepath.FromSlash(rel) || strings.Contains("/"+rel+"/", "/../")) {
			continue
		}
		if holdsAnyGo(filepath.Join(s.Dir, filepath.FromSlash(rel))) {
			seen[p] = true
		}
	}
	return sortedKeys(seen)
}

// holdsAnyGo reports whether dir holds a Go file, test files included.
func holdsAnyGo(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			return true
		}
	}
	return false
}

// needs is what the replay build adds of one package of the module for
// the names the logs give its types.
type needs struct {
	pkg   bool // the package, kept whole (keepFile)
	tests bool // its in-package test files
	xtest bool // its external test package
}

// classifyNames says, for the packages the logs name (listed in s.Listed),
// what the replay build must add of each. The observed packages are not
// in it: their test files and external test packages are linked anyway,
// and their types registered.
func (s *Session) classifyNames(names map[string]map[string]bool) map[string]needs {
	out := map[string]needs{}
	for p, idents := range names {
		base, xt := strings.CutSuffix(p, "_test")
		lp := s.Listed[base]
		if lp == nil || !s.inModule(lp) || isObserved(base, s.Observed) {
			continue
		}
		n := out[base]
		if xt {
			n.xtest = len(lp.XTestGoFiles) > 0
			n.tests = n.tests || len(lp.TestGoFiles) > 0
			out[base] = n
			continue
		}
		top := topLevelTypes(lp.Dir, lp.GoFiles)
		for id := range idents {
			if top[id] {
				n.pkg = n.pkg || lp.Error == nil && lp.Name != "main"
			} else if len(lp.TestGoFiles) > 0 {
				n.tests = true
			}
		}
		out[base] = n
	}
	return out
}

// inModule reports whether lp is a package of the main module (its
// directory under the module root), whatever its name.
func (s *Session) inModule(lp *load.ListedPackage) bool {
	if s.ModPath == "" {
		return false
	}
	if lp.Module != nil {
		return lp.Module.Path == s.ModPath
	}
	return lp.ImportPath == s.ModPath || strings.HasPrefix(lp.ImportPath, s.ModPath+"/")
}

// topLevelTypes returns the names of the package-level types that files
// (in dir) declare.
func topLevelTypes(dir string, files []string) map[string]bool {
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range file.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				for _, sp := range gd.Specs {
					out[sp.(*ast.TypeSpec).Name.Name] = true
				}
			}
		}
	}
	return out
}

// keepFile is the generated file that keeps a linked package's types and
// functions in the replay binary.
const keepFile = "zz_capture_keep.go"

// keepSource is a file of package pkg that refers to funcs and to the
// pointer types of types, so that the linker keeps them, the types declared
// inside the functions, and the pointer types through which replay finds a
// named type in the binary (value.LinkedType). It runs nothing: it only
// holds values.
func keepSource(pkg, varName string, funcs, types []string) ([]byte, error) {
	funcs = slices.Sorted(slices.Values(funcs))
	types = slices.Sorted(slices.Values(types))
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by capture replay. DO NOT EDIT.\n\npackage %s\n\n", pkg)
	b.WriteString("// " + varName + " keeps functions and types of the package, and the\n")
	b.WriteString("// types declared in them, in the replay binary: replay rebuilds values\n")
	b.WriteString("// of those types that observed code reflects over.\n")
	fmt.Fprintf(&b, "var %s []interface{}\n\nfunc init() {\n\t%s = []interface{}{\n", varName, varName)
	for _, f := range funcs {
		fmt.Fprintf(&b, "\t\t%s,\n", f)
	}
	for _, t := range types {
		fmt.Fprintf(&b, "\t\t(*%s)(nil),\n", t)
	}
	b.WriteString("\t}\n}\n")
	return format.Source([]byte(b.String()))
}

// testMainFuncs are the functions of test file (parsed with its comments)
// that go test's generated main refers to, and so the roots of what its
// binary holds of the file: tests, benchmarks, fuzz targets, TestMain, and
// examples with an output comment (an example without one is compiled but
// never run, and the linker drops it and the types declared in it).
// Referring to the same functions, the replay binary holds the same types
// of the file as the capture's: a type of a name that also names a type in
// an example without output (govalidator's two Post types) is then one
// type in both, and both name it alike.
func testMainFuncs(file *ast.File) []string {
	var out []string
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Type.TypeParams != nil || fd.Body == nil {
			continue
		}
		n := fd.Name.Name
		switch {
		case n == "TestMain", isTestName(n, "Test"), isTestName(n, "Benchmark"), isTestName(n, "Fuzz"):
			out = append(out, n)
		case isTestName(n, "Example") && hasOutput(file, fd):
			out = append(out, n)
		}
	}
	return out
}

// isTestName reports whether name is prefix followed by nothing or by a
// character that is not a lower-case letter, as go test requires.
func isTestName(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || !unicode.IsLower(r)
}

// hasOutput reports whether example fd ends with an output comment, which
// makes go test run it.
func hasOutput(file *ast.File, fd *ast.FuncDecl) bool {
	var last *ast.CommentGroup
	for _, cg := range file.Comments {
		if cg.Pos() > fd.Body.Lbrace && cg.End() < fd.Body.Rbrace {
			last = cg
		}
	}
	if last == nil {
		return false
	}
	text := strings.ToLower(strings.TrimSpace(last.Text()))
	return strings.HasPrefix(text, "output:") || strings.HasPrefix(text, "unordered output:")
}

// keptTypes are the package-level types of file that a value can have
// without type arguments (not generic ones, not _), and that are not
// constraints: an interface that embeds anything may be a constraint,
// which no pointer type can be made of.
func keptTypes(file *ast.File) []string {
	var out []string
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, sp := range gd.Specs {
			ts := sp.(*ast.TypeSpec)
			if ts.TypeParams != nil || ts.Name.Name == "_" {
				continue
			}
			if it, ok := ts.Type.(*ast.InterfaceType); ok && slices.ContainsFunc(it.Methods.List, func(f *ast.Field) bool { return len(f.Names) == 0 }) {
				continue
			}
			out = append(out, ts.Name.Name)
		}
	}
	return out
}

// initRunsObserved says why linking package p (a package the logs name,
// with what it imports) would run observed code while replay initialises:
// p, or a package of the module it depends on that depends on an observed
// package, has an init function or package-level initialiser that may
// call observed code. In the capture such calls were the init-time
// incalls of the log (when the test binary held the package), which the
// player performs; run natively too, they would be done twice, or be
// incalls the log does not hold. "" if there is none.
func (s *Session) initRunsObserved(p string, memo map[string]string) string {
	lp := s.Listed[p]
	if lp == nil {
		return ""
	}
	for _, d := range append([]string{p}, lp.Deps...) {
		dp := s.Listed[d]
		if dp == nil || isObserved(d, s.Observed) || !s.inModule(dp) || !s.mayRunObserved(d, "") {
			continue
		}
		why, ok := memo[d]
		if !ok {
			fset := token.NewFileSet()
			var files []*ast.File
			for _, f := range dp.GoFiles {
				file, err := parser.ParseFile(fset, filepath.Join(dp.Dir, f), nil, parser.SkipObjectResolution)
				if err == nil {
					files = append(files, file)
				}
			}
			if at := s.initCalls(fset, files, d, true); at != "" {
				why = fmt.Sprintf("the initialisation of %s may call observed code (%s), which replay performs from the log", d, at)
			}
			memo[d] = why
		}
		if why != "" {
			return why
		}
	}
	return ""
}

// keepPackage adds keepFile to package lp (a package of the module that
// the logs name, not observed), which the harness imports.
func (s *Session) keepPackage(lp *load.ListedPackage) error {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, f := range lp.GoFiles {
		path := filepath.Join(lp.Dir, f)
		if o, ok := s.Overlay[path]; ok {
			path = o
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		file, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("keeping the types of %s: %v", lp.ImportPath, err)
		}
		files = append(files, file)
	}
	var types []string
	for _, f := range files {
		types = append(types, keptTypes(f)...)
	}
	src, err := keepSource(lp.Name, "_capture_keep", nil, types)
	if err != nil {
		return err
	}
	return s.AddFile(filepath.Join(lp.Dir, keepFile), src)
}

// union returns the keys of the sets.
func union(sets ...map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, m := range sets {
		for k := range m {
			out[k] = true
		}
	}
	return out
}
