package frontend

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rules-capture/rules_capture/tool/internal/load"
	"github.com/rules-capture/rules_capture/tool/transform"
)

// The replay build links the observed packages' in-package test files.
//
// A log's values are the test's values: observed code that reflects over
// values from outside is handed values of types the test declared, in a
// _test.go file (toml's `type menu struct`), inside a test function
// (`type table map[string]int` in TestDecodeIntOverflow) or as a struct
// literal (`&struct{ A int }{}`). Native reflection in replay needs those
// very types (docs/design/reflection.md), and the capture's binary held
// them because go test compiles a package together with its _test.go
// files. The replay harness does the same for the observed packages of the
// module under test: each _test.go file of package P (not of P_test) is
// added to P's replay build under another name (zz_capture_test_*.go, an
// ordinary file of P), and a generated file refers to every function of
// those files, so that the linker keeps them and with them the types they
// declare. The types then have the capture's package path and name, the
// binary's type table lists them, and replay rebuilds a reflected value of
// such a type as that very type (value.LinkedType). No test function runs:
// only the init functions and package-level variables of the test files,
// as in the capture's test binary.
//
// Not linked: the files of an external test package (P_test is another
// package, which no build can import), and the test files of a package
// whose tests import a package that imports P (go test compiles such a
// package again for the test; an ordinary build would be an import cycle).

// testFilePrefix starts the overlay names of the copied test files.
const testFilePrefix = "zz_capture_test_"

// testFuncsFile is the generated file that refers to the test files'
// functions.
const testFuncsFile = "zz_capture_testfuncs.go"

// testImports returns the packages the in-package test files of the
// observed packages of the main module, and of the packages whose test
// files the logs need (extraTests, logtypes.go), import (which the replay
// build must then contain), by package.
func (s *Session) testImports() map[string][]string {
	out := map[string][]string{}
	for _, o := range s.testLinked(s.extraTests) {
		lp := s.Listed[o]
		if lp == nil || !s.inModule(lp) || lp.Name == "main" || len(lp.TestGoFiles) == 0 {
			continue
		}
		seen := map[string]bool{}
		fset := token.NewFileSet()
		for _, f := range lp.TestGoFiles {
			file, err := parser.ParseFile(fset, filepath.Join(lp.Dir, f), nil, parser.ImportsOnly)
			if err != nil {
				continue // the build of the copy reports it
			}
			for _, imp := range file.Imports {
				p, err := strconv.Unquote(imp.Path.Value)
				if err != nil || p == "C" || seen[p] {
					continue
				}
				seen[p] = true
				out[o] = append(out[o], p)
			}
		}
		sort.Strings(out[o])
	}
	return out
}

// xtestImportPaths returns what the external test files of the observed
// packages of the main module, and of the packages whose external test
// package the logs name (extraXTests), import, besides the package itself.
func (s *Session) xtestImportPaths() []string {
	seen := map[string]bool{}
	var out []string
	for _, o := range s.testLinked(s.extraXTests) {
		lp := s.Listed[o]
		if lp == nil || !s.inModule(lp) || lp.Name == "main" {
			continue
		}
		fset := token.NewFileSet()
		for _, f := range lp.XTestGoFiles {
			file, err := parser.ParseFile(fset, filepath.Join(lp.Dir, f), nil, parser.ImportsOnly)
			if err != nil {
				continue
			}
			for _, imp := range file.Imports {
				p, err := strconv.Unquote(imp.Path.Value)
				if err != nil || p == "C" || p == o || seen[p] {
					continue
				}
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

func (s *Session) inMainModule(lp *load.ListedPackage) bool {
	return lp.Module != nil && lp.Module.Path == s.ModPath && s.ModPath != "" && lp.Name != "main"
}

// testLinked returns the observed packages and those of extra, sorted:
// the packages whose test files (or external test packages) the replay
// build links.
func (s *Session) testLinked(extra map[string]bool) []string {
	seen := map[string]bool{}
	for _, o := range s.Observed {
		seen[o] = true
	}
	for p := range extra {
		seen[p] = true
	}
	return sortedKeys(seen)
}

// linkTestFiles adds the in-package test files of the observed packages
// (imports: testImports, whose packages s.Listed now holds) to the replay
// build. It returns the packages whose test files it linked, and for each
// package it could not, why.
func (s *Session) linkTestFiles(imports map[string][]string) (linked map[string]bool, notes []string, err error) {
	linked = map[string]bool{}
	for _, o := range sortedKeys(imports) {
		lp := s.Listed[o]
		if why := s.testCycle(o, imports[o]); why != "" {
			notes = append(notes, fmt.Sprintf("the test files of %s are not linked into the replay build: %s", o, why))
			continue
		}
		fset := token.NewFileSet()
		var files []*ast.File
		var srcs [][]byte
		for _, f := range lp.TestGoFiles {
			path := filepath.Join(lp.Dir, f)
			src, err := os.ReadFile(path)
			if err != nil {
				return nil, nil, err
			}
			file, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution|parser.ParseComments)
			if err != nil {
				return nil, nil, fmt.Errorf("linking the test files of %s: %v", o, err)
			}
			files = append(files, file)
			srcs = append(srcs, src)
		}
		if at := s.initCallsObserved(fset, files, o); at != "" {
			notes = append(notes, fmt.Sprintf("the test files of %s are not linked into the replay build: their initialisation may call observed code (%s), which replay performs from the log", o, at))
			continue
		}
		for i, f := range lp.TestGoFiles {
			// A //line directive keeps the file's own name and lines in
			// positions (a panic in a test's method replayed natively).
			copied := append([]byte(fmt.Sprintf("//line %s:1\n", f)), renameInits(fset, files[i], srcs[i], i)...)
			if err := s.AddFile(filepath.Join(lp.Dir, testFilePrefix+strings.TrimSuffix(f, "_test.go")+".go"), copied); err != nil {
				return nil, nil, err
			}
		}
		var funcs []string
		for _, f := range files {
			funcs = append(funcs, testMainFuncs(f)...)
		}
		src, err := keepSource(lp.Name, "_capture_testFuncs", funcs, nil)
		if err != nil {
			return nil, nil, err
		}
		if err := s.AddFile(filepath.Join(lp.Dir, testFuncsFile), src); err != nil {
			return nil, nil, err
		}
		linked[o] = true
	}
	return linked, notes, nil
}

// testCycle says why the test files of observed package o, which import
// imports, cannot be compiled into o itself: one of them imports o, or a
// package that depends on o. "" when they can.
func (s *Session) testCycle(o string, imports []string) string {
	for _, imp := range imports {
		if imp == o {
			return "they import the package itself"
		}
		lp := s.Listed[imp]
		if lp == nil {
			return fmt.Sprintf("they import %s, which is not in the build", imp)
		}
		if lp.Error != nil {
			return fmt.Sprintf("they import %s: %s", imp, lp.Error.Err)
		}
		for _, d := range lp.Deps {
			if d == o {
				return fmt.Sprintf("they import %s, which imports %s (go test compiles it again for the test; an ordinary build cannot)", imp, o)
			}
		}
	}
	return ""
}

// topLevelFuncs are the functions of file that code of its package can
// refer to by name: not methods (kept with their types), not generic
// functions (which have no value without type arguments), not init or _.
func topLevelFuncs(file *ast.File) []string {
	var names []string
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Type.TypeParams != nil {
			continue
		}
		if n := fd.Name.Name; n != "init" && n != "_" {
			names = append(names, n)
		}
	}
	return names
}

// renameInits returns src (parsed as file) with its init functions
// renamed, so that they do not run: a linked test file is linked for the
// types it declares, and no test code runs in replay. What an init function
// did to observed state (govalidator's validator_test.go registers custom
// validators with CustomTypeTagMap.Set) was recorded as the init-time
// incalls of the log, which the player performs; run natively too, it
// would do it twice. Only the names change: lines and columns stay.
// fileIndex, the file's index among the package's test files, keeps the
// new names of two files apart.
func renameInits(fset *token.FileSet, file *ast.File, src []byte, fileIndex int) []byte {
	var offs []int
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
			offs = append(offs, fset.Position(fd.Name.Pos()).Offset)
		}
	}
	if len(offs) == 0 {
		return src
	}
	out := append([]byte(nil), src...)
	for i := len(offs) - 1; i >= 0; i-- {
		// Numbered by the file too: a package's test files are one
		// package, and two of them may each declare an init (decimal).
		name := fmt.Sprintf("_capture_init%d_%d", fileIndex, i)
		out = append(out[:offs[i]], append([]byte(name), out[offs[i]+len("init"):]...)...)
	}
	return out
}

// sitePackages returns the packages of the main module that the type
// arguments of the generic sites name and the replay build does not
// contain yet (go-toml's tests of package unstable call the observed
// assert.Equal[unstable.Kind]). The build adds them, so that the harness
// can instantiate those calls: they are the module's own packages, whose
// tests wrote the logs; a package of any other module stays out.
func (s *Session) sitePackages(sites []string) []string {
	pkgs := map[string]bool{}
	for _, site := range sites {
		if !transform.IsInstanceSite(site) {
			continue
		}
		is, err := transform.ParseInstanceSite(site)
		if err != nil {
			continue // BuildHarnessFor refuses the log
		}
		for _, a := range is.Args {
			typeArgPackages(a, pkgs)
		}
	}
	var out []string
	for _, p := range sortedKeys(pkgs) {
		if s.Listed[p] != nil || s.ModPath == "" || (p != s.ModPath && !strings.HasPrefix(p, s.ModPath+"/")) {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, s.ModPath), "/")
		if rel != "" && (path.Clean(rel) != rel || slices.Contains(strings.Split(rel, "/"), "..")) {
			continue // not a package path the go command would list
		}
		if hasGoFiles(filepath.Join(s.Dir, filepath.FromSlash(rel))) {
			out = append(out, p)
		}
	}
	return out
}

func typeArgPackages(t *transform.TypeArg, out map[string]bool) {
	if t == nil {
		return
	}
	if t.Kind == transform.KindNamed && t.Pkg != "" {
		out[t.Pkg] = true
	}
	typeArgPackages(t.Key, out)
	typeArgPackages(t.Elem, out)
}

// hasGoFiles reports whether dir holds a Go file that is not a test: a
// package the go command can list without a network look-up.
func hasGoFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// dropUnusable removes from the listed packages those of sitePackages that
// no harness can import (a main package, one the go command could not
// load), so that instantiating with their types is refused as for any
// package outside the build.
func (s *Session) dropUnusable(added []string) {
	for _, p := range added {
		if lp := s.Listed[p]; lp != nil && (lp.Name == "main" || lp.Error != nil) {
			delete(s.Listed, p)
		}
	}
}

// xtestDir is where, under the session's work directory, the external
// test packages linked into the replay build lie, one module each.
const xtestDir = "xtest"

// xtestPath is the import path of observed package o's external test
// package, as the capture's test binary named it (cast_test.Key is
// "github.com/spf13/cast_test.Key" in a log).
func xtestPath(o string) string { return o + "_test" }

// linkXTests makes the external test packages (package P_test) of the
// observed packages of the main module part of the replay build, so that
// the types they declare are too. Such a package is no package of the
// module: go test compiles it under the import path P_test, which no
// ordinary build can import. The replay build gets it as a module of its
// own at that very path: its files copied under the work directory as
// ordinary files with a go.mod of module P_test (the module's language
// version), which the temporary module file requires and replaces by that
// directory. Its types then have the capture's package path and name. Only
// for a package whose in-package test files the build links too (or that
// has none): an external test may use what they export (export_test.go).
// It returns the import paths it added, which the harness imports.
func (s *Session) linkXTests(linkedTests map[string]bool) (added, notes []string, restore func() error, err error) {
	if s.ModFile == "" {
		return nil, nil, nil, nil // rules_capture itself: its go.mod is not the session's to change
	}
	mod, err := os.ReadFile(s.ModFile)
	if err != nil {
		return nil, nil, nil, err
	}
	text := string(mod)
	for _, o := range s.testLinked(s.extraXTests) {
		lp := s.Listed[o]
		if lp == nil || !s.inModule(lp) || lp.Name == "main" || len(lp.XTestGoFiles) == 0 || len(lp.TestGoFiles) > 0 && !linkedTests[o] {
			continue
		}
		dir := filepath.Join(s.Work, xtestDir, strings.ReplaceAll(o, "/", "_"))
		// go test lets P_test import P's internal packages; a package at
		// P_test's path in an ordinary build may not. Such imports are of
		// copies (internalCopies), unless a type the test declares is made
		// of theirs.
		copies, why := s.internalCopies(xtestPath(o), dir, s.xtestImportsOf(lp))
		if why != "" {
			notes = append(notes, fmt.Sprintf("the external test package %s is not linked into the replay build: %s", xtestPath(o), why))
			continue
		}
		if at := typesMadeOf(lp.Dir, lp.XTestGoFiles, copies); at != "" {
			notes = append(notes, fmt.Sprintf("the external test package %s is not linked into the replay build: it declares a type made of a type of an internal package (%s), which only go test lets it import", xtestPath(o), at))
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, nil, nil, err
		}
		if err := s.writeInternalCopies(copies); err != nil {
			return nil, nil, nil, err
		}
		fset := token.NewFileSet()
		var files []*ast.File
		var srcs [][]byte
		for _, f := range lp.XTestGoFiles {
			src, err := os.ReadFile(filepath.Join(lp.Dir, f))
			if err != nil {
				return nil, nil, nil, err
			}
			file, err := parser.ParseFile(fset, filepath.Join(lp.Dir, f), src, parser.SkipObjectResolution|parser.ParseComments)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("linking the external test files of %s: %v", o, err)
			}
			files = append(files, file)
			srcs = append(srcs, src)
		}
		if at := s.initCallsObserved(fset, files, o); at != "" {
			notes = append(notes, fmt.Sprintf("the external test package %s is not linked into the replay build: its initialisation may call observed code (%s), which replay performs from the log", xtestPath(o), at))
			continue
		}
		for i, f := range lp.XTestGoFiles {
			copied := append([]byte(fmt.Sprintf("//line %s:1\n", f)), rewriteImports(fset, files[i], renameInits(fset, files[i], srcs[i], i), copies)...)
			if err := os.WriteFile(filepath.Join(dir, testFilePrefix+strings.TrimSuffix(f, "_test.go")+".go"), copied, 0o644); err != nil {
				return nil, nil, nil, err
			}
		}
		var funcs []string
		for _, f := range files {
			funcs = append(funcs, testMainFuncs(f)...)
		}
		src, err := keepSource(lp.Name+"_test", "_capture_testFuncs", funcs, nil)
		if err != nil {
			return nil, nil, nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, testFuncsFile), src, 0o644); err != nil {
			return nil, nil, nil, err
		}
		lang := s.GoVersion
		if lang == "" {
			lang = "1.16"
		}
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(fmt.Sprintf("module %s\n\ngo %s\n", xtestPath(o), lang)), 0o644); err != nil {
			return nil, nil, nil, err
		}
		text += fmt.Sprintf("\nrequire %s v0.0.0-00010101000000-000000000000\n\nreplace %s => %s\n", xtestPath(o), xtestPath(o), dir)
		added = append(added, xtestPath(o))
	}
	if len(added) == 0 {
		return nil, notes, nil, nil
	}
	restore = func() error { return os.WriteFile(s.ModFile, mod, 0o644) }
	return added, notes, restore, os.WriteFile(s.ModFile, []byte(text), 0o644)
}

// xtestImportsOf returns what the external test files of lp import.
func (s *Session) xtestImportsOf(lp *load.ListedPackage) []string {
	var out []string
	fset := token.NewFileSet()
	for _, f := range lp.XTestGoFiles {
		file, err := parser.ParseFile(fset, filepath.Join(lp.Dir, f), nil, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, imp := range file.Imports {
			if p, err := strconv.Unquote(imp.Path.Value); err == nil {
				out = append(out, p)
			}
		}
	}
	return out
}

// internalImport returns the first of imports that a package at path may
// not import by Go's rule for internal packages ("" if none).
func internalImport(path string, imports []string) string {
	for _, imp := range imports {
		elems := strings.Split(imp, "/")
		for i, e := range elems {
			if e != "internal" {
				continue
			}
			parent := strings.Join(elems[:i], "/")
			if parent == "" || path != parent && !strings.HasPrefix(path, parent+"/") {
				return imp
			}
		}
	}
	return ""
}

// xtestImports is the harness file that links the external test packages
// linkXTests added.
func xtestImports(paths []string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by capture replay. DO NOT EDIT.\n\npackage main\n\n")
	b.WriteString("// The observed packages' external test packages and the packages the\n// logs' types name, for the types they declare (frontend.linkXTests,\n// logtypes.go).\nimport (\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "\t_ %q\n", p)
	}
	b.WriteString(")\n")
	return format.Source(b.Bytes())
}

// exportWithTests lists the observed packages whose test files the build
// links again, with them, and keeps their export data: the harness then
// type-checks a generic instantiation with a type argument that one of
// those files declares, exported (go-toml's assert.Equal[assert.Data] from
// assert's own tests), and instantiates it.
func (s *Session) exportWithTests(linkedTests map[string]bool) error {
	var pkgs []string
	for _, o := range s.Observed {
		if linkedTests[o] {
			pkgs = append(pkgs, o)
		}
	}
	if len(pkgs) == 0 {
		return nil
	}
	all, _, err := load.List(s.Dir, s.goEnv(), s.GoFlags(), pkgs...)
	if err != nil {
		return err
	}
	for _, p := range pkgs {
		if lp := all[p]; lp != nil && lp.Error == nil && lp.Export != "" {
			s.Listed[p].Export = lp.Export
		}
	}
	return nil
}

// builtinFuncs are the predeclared functions and types (conversions),
// which run no observed code.
var builtinFuncs = map[string]bool{"append": true, "cap": true, "clear": true, "close": true, "complex": true,
	"copy": true, "delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true, "new": true,
	"panic": true, "print": true, "println": true, "real": true, "recover": true,
	"bool": true, "byte": true, "rune": true, "string": true, "int": true, "int8": true, "int16": true, "int32": true,
	"int64": true, "uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true, "any": true, "error": true}

// initCallsObserved returns, for test files of package self (parsed), the
// position and name of a call that their initialisation (package-level
// variable initialisers, and the test functions these call) may make into
// observed code, or "" if there is none. Linked into the replay build, such
// a call would run natively while replay initialises, and again when the
// player performs the init-time incalls the log recorded (pflag's
// flag_test.go: `testBool = Bool("test_bool", ...)`), so such test files
// are not linked. Their init functions do not count: the linked copies
// have them renamed (renameInits). Conservative: a call of a function or
// conversion of the package's own non-test files (where the package may
// run observed code), of a package that is observed or depends on one, or
// of a method on a value counts.
func (s *Session) initCallsObserved(fset *token.FileSet, files []*ast.File, self string) string {
	return s.initCalls(fset, files, self, false)
}

// initCalls is initCallsObserved, counting the files' init functions too
// where withInit is set (files that are linked as they are: a package's
// non-test files).
func (s *Session) initCalls(fset *token.FileSet, files []*ast.File, self string, withInit bool) string {
	declared := map[string]ast.Node{}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					declared[d.Name.Name] = d
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						declared[sp.Name.Name] = sp
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							declared[n.Name] = sp
						}
					}
				}
			}
		}
	}
	found := ""
	visited := map[ast.Node]bool{}
	// walk looks for calls that running root makes. A function literal
	// that a function returns is a value, not run there (cast's
	// `toAny(cast.To[int])` returns one that calls its parameter): its
	// calls count where the result is called (a call of a call's result
	// counts as such a call) or where a variable it initialises is
	// called (then the whole initialiser is walked: deep). Other function
	// literals (arguments, called at once) are walked where they are.
	var walk func(n ast.Node, imports map[string]string, deep bool)
	walk = func(root ast.Node, imports map[string]string, deep bool) {
		if root == nil || visited[root] || found != "" {
			return
		}
		visited[root] = true
		// Local variables set from a call whose package the syntax says
		// (fi, err := os.Stdout.Stat(), then fi.Mode() in chi's
		// middleware) count as values of that package, as the call's
		// result does: imports gets them for this walk.
		imports = maps.Clone(imports)
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
				if call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok {
					if p := callPackage(call, imports); p != "" {
						for _, l := range as.Lhs {
							if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
								if _, isImport := imports[id.Name]; !isImport {
									imports[id.Name] = p
								}
							}
						}
					}
				}
			}
			if ret, ok := n.(*ast.ReturnStmt); ok && !deep {
				for _, r := range ret.Results {
					if _, lit := ast.Unparen(r).(*ast.FuncLit); !lit {
						ast.Inspect(r, visit)
					}
				}
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok || found != "" {
				return found == ""
			}
			callee := ast.Unparen(call.Fun)
			switch ix := callee.(type) { // a generic function's instantiation
			case *ast.IndexExpr:
				callee = ix.X
			case *ast.IndexListExpr:
				callee = ix.X
			}
			switch fun := callee.(type) {
			case *ast.FuncLit:
			case *ast.Ident:
				if builtinFuncs[fun.Name] {
					break
				}
				if d, ok := declared[fun.Name]; ok {
					switch d := d.(type) {
					case *ast.FuncDecl:
						walk(d.Body, imports, deep)
					case *ast.ValueSpec:
						walk(d, imports, true)
					}
					break
				}
				if s.mayRunObserved(self, "") && !s.declaresType(self, fun.Name) {
					found = fmt.Sprintf("%s: %s", position(fset, call.Pos()), fun.Name)
				}
			case *ast.SelectorExpr:
				x, ok := fun.X.(*ast.Ident)
				if !ok {
					if p := receiverPackage(fun.X, imports); p == "" || s.mayRunObserved(p, self) {
						found = fmt.Sprintf("%s: a method call", position(fset, call.Pos()))
					}
					break
				}
				if path, imported := imports[x.Name]; imported {
					if s.mayRunObserved(path, self) && !s.declaresType(path, fun.Sel.Name) {
						found = fmt.Sprintf("%s: %s.%s", position(fset, call.Pos()), x.Name, fun.Sel.Name)
					}
					break
				}
				found = fmt.Sprintf("%s: a method call", position(fset, call.Pos()))
			case *ast.ParenExpr, *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType,
				*ast.StructType, *ast.StarExpr:
				// A conversion.
			default:
				found = fmt.Sprintf("%s: a call of a function value", position(fset, call.Pos()))
			}
			return found == ""
		}
		ast.Inspect(root, visit)
	}
	for _, f := range files {
		imports := map[string]string{}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				continue
			}
			name := path.Base(p)
			if lp := s.Listed[p]; lp != nil && lp.Name != "" {
				name = lp.Name
			}
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imports[name] = p
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if withInit && d.Recv == nil && d.Name.Name == "init" {
					walk(d.Body, imports, false)
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, sp := range d.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok {
						for _, v := range vs.Values {
							walk(v, imports, false)
						}
					}
				}
			}
		}
	}
	return found
}

// callPackage returns the package of the function or method call makes,
// where the syntax says it (p.F(...), or a method of a value
// receiverPackage places): its results are values of that package.
func callPackage(call *ast.CallExpr, imports map[string]string) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if id, ok := sel.X.(*ast.Ident); ok {
		return imports[id.Name]
	}
	return receiverPackage(sel.X, imports)
}

// receiverPackage returns the package whose type a method's receiver
// expression has, where the syntax says it: a value new(p.T), p.T{...},
// the result of a function p.F or of a method of such a value (cast's
// new(big.Int).Sub(a, b).String()), a variable p.V; "" where it does not.
func receiverPackage(x ast.Expr, imports map[string]string) string {
	typePkg := func(t ast.Expr) string {
		if sel, ok := ast.Unparen(t).(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				return imports[id.Name]
			}
		}
		return ""
	}
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		switch f := ast.Unparen(x.Fun).(type) {
		case *ast.Ident:
			if f.Name == "new" && len(x.Args) == 1 {
				return typePkg(x.Args[0])
			}
		case *ast.SelectorExpr:
			if id, ok := f.X.(*ast.Ident); ok {
				return imports[id.Name]
			}
			return receiverPackage(f.X, imports)
		}
	case *ast.CompositeLit:
		return typePkg(x.Type)
	case *ast.UnaryExpr:
		return receiverPackage(x.X, imports)
	case *ast.SelectorExpr:
		// A package's variable, p.V (chi's middleware initialises with
		// base64.StdEncoding.EncodeToString): its value is p's, as a
		// result of p.F is.
		if id, ok := x.X.(*ast.Ident); ok {
			return imports[id.Name]
		}
	}
	return ""
}

// mayRunObserved reports whether code of package p may run observed code:
// p is observed (or self), or depends on an observed package.
func (s *Session) mayRunObserved(p, self string) bool {
	if p == self || isObserved(p, s.Observed) {
		return true
	}
	lp := s.Listed[p]
	if lp == nil {
		// Not listed: the standard library's packages depend on no
		// observed package; any other may.
		return strings.Contains(strings.Split(p, "/")[0], ".")
	}
	for _, d := range lp.Deps {
		if d == self || isObserved(d, s.Observed) {
			return true
		}
	}
	return false
}

// declaresType reports whether the non-test files of package p declare a
// package-level type name: p.name(x) is then a conversion, which runs no
// code (patcher/value's `var ValueGetter = expr.Option(func(...) {...})`).
func (s *Session) declaresType(p, name string) bool {
	if s.typesOf == nil {
		s.typesOf = map[string]map[string]bool{}
	}
	ts, ok := s.typesOf[p]
	if !ok {
		if lp := s.Listed[p]; lp != nil {
			ts = topLevelTypes(lp.Dir, lp.GoFiles)
		}
		s.typesOf[p] = ts
	}
	return ts[name]
}
