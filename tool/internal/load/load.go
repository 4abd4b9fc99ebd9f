// Package load loads and type-checks a package for the transform, and
// writes the transform's output, for every front end. A front end differs
// only in how it finds the Inputs: the go-native commands ask
// `go list -export` (List, Listed), the Bazel action is given its files and
// its dependencies' export data on the command line. Either way the package
// is type-checked from source against its imports' export data.
package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rules-capture/rules_capture/tool/transform"
)

// ListedPackage is the part of `go list -json` output the front end uses.
type ListedPackage struct {
	ImportPath   string
	Name         string
	Dir          string
	GoFiles      []string
	CgoFiles     []string
	TestGoFiles  []string
	XTestGoFiles []string
	Export       string
	ImportMap    map[string]string
	Deps         []string // every package it depends on, directly or not
	Standard     bool
	DepOnly      bool
	Module       *struct {
		Path      string
		Version   string
		Dir       string
		GoMod     string
		GoVersion string // its go line ("1.16" when it has none)
	}
	Error *struct{ Err string }
}

// List runs `go list -json -export -deps` in dir.
func List(dir string, env []string, flags []string, patterns ...string) (map[string]*ListedPackage, []*ListedPackage, error) {
	args := append([]string{"list", "-e", "-json", "-export", "-deps"}, flags...)
	args = append(args, "--")
	args = append(args, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go list: %v\n%s", err, stderr.Bytes())
	}
	all := map[string]*ListedPackage{}
	var order []*ListedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p ListedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, nil, fmt.Errorf("go list output: %w", err)
		}
		all[p.ImportPath] = &p
		order = append(order, &p)
	}
	return all, order, nil
}

// Inputs are what a front end found for one package: its sources and where
// the export data of what they import lies. They are all that differs
// between the front ends (go list for the go-native commands, the command
// line of the Bazel action); loading, type-checking and writing the output
// are the same for both.
type Inputs struct {
	ImportPath string
	// Files are the paths of the Go files compiled into the package, in
	// compilation order; the instrumented files name them in //line
	// directives. A file that imports "C" is rejected.
	Files []string
	// GOARCH sets the sizes of basic types ("": go/types' default).
	GOARCH string
	// GoVersion is the language version of the package's module ("1.18";
	// "": the newest). The type-checker records each file's version from
	// it (or from the file's own //go:build goX.Y line), and the transform
	// writes into each file only what compiles at that version.
	GoVersion string
	// ExportData opens the export data of a package the sources import,
	// by the path written in the import, or says why there is none.
	ExportData func(path string) (io.ReadCloser, error)
	// TestFiles are the paths of the package's _test.go files that the
	// build constraints keep. Those of the package itself (not of P_test)
	// are parsed, not type-checked (their imports' export data is not
	// needed): the transform makes the unexported functions and methods
	// they refer to incalls (transform.Package.Tests).
	TestFiles []string
}

// Check parses the inputs' files and type-checks them against the export
// data of their imports.
func (in Inputs) Check() (*transform.Package, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	var srcs [][]byte
	for _, path := range in.Files {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		for _, imp := range f.Imports {
			if imp.Path.Value == `"C"` {
				return nil, &transform.Error{Pos: fset.Position(imp.Pos()),
					Construct: "cgo (import \"C\")", Fix: "move the cgo code into a separate, unobserved package and call it from the observed one"}
			}
		}
		files = append(files, f)
		srcs = append(srcs, src)
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		Implicits:    map[ast.Node]types.Object{},
		Scopes:       map[ast.Node]*types.Scope{},
		Instances:    map[*ast.Ident]types.Instance{},
		FileVersions: map[*ast.File]string{},
	}
	var errs []error
	conf := types.Config{
		Importer: importer.ForCompiler(fset, "gc", in.ExportData),
		// The transform stops at a package that does not type-check; the
		// first few errors say why without the compiler's run.
		Error: func(err error) {
			if len(errs) < 10 {
				errs = append(errs, err)
			}
		},
	}
	if in.GoVersion != "" {
		conf.GoVersion = "go" + strings.TrimPrefix(in.GoVersion, "go")
	}
	if in.GOARCH != "" {
		conf.Sizes = types.SizesFor("gc", in.GOARCH)
	}
	pkg, _ := conf.Check(in.ImportPath, fset, files, info)
	if len(errs) > 0 {
		return nil, fmt.Errorf("type-checking %s: %w", in.ImportPath, errors.Join(errs...))
	}
	tests := in.parseTests(fset, pkg.Name())
	return &transform.Package{Fset: fset, Files: files, Sources: srcs, Types: pkg, Info: info, Tests: tests}, nil
}

// parseTests parses the test files of package name (not those of
// name_test). One that does not parse is left out: the build of the tests
// reports it, and the package itself builds without it.
func (in Inputs) parseTests(fset *token.FileSet, name string) []*ast.File {
	var tests []*ast.File
	for _, path := range in.TestFiles {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err == nil && f.Name.Name == name {
			tests = append(tests, f)
		}
	}
	return tests
}

// Listed finds the inputs of the listed package lp: its files in its
// directory, and its imports' export data as `go list -export` listed it
// in all. go list sets cgo files apart; they come last, to be rejected.
func Listed(lp *ListedPackage, all map[string]*ListedPackage) (Inputs, error) {
	if lp.Error != nil {
		return Inputs{}, fmt.Errorf("%s: %s", lp.ImportPath, lp.Error.Err)
	}
	in := Inputs{ImportPath: lp.ImportPath, ExportData: listedExportData(all, lp)}
	if lp.Module != nil {
		in.GoVersion = lp.Module.GoVersion
	}
	for _, name := range append(append([]string{}, lp.GoFiles...), lp.CgoFiles...) {
		in.Files = append(in.Files, filepath.Join(lp.Dir, name))
	}
	for _, name := range lp.TestGoFiles {
		in.TestFiles = append(in.TestFiles, filepath.Join(lp.Dir, name))
	}
	return in, nil
}

// Check type-checks the listed package lp from source against the export
// data of its dependencies in all.
func Check(lp *ListedPackage, all map[string]*ListedPackage) (*transform.Package, error) {
	in, err := Listed(lp, all)
	if err != nil {
		return nil, err
	}
	return in.Check()
}

// WriteOutput writes an instrumented package into dir: each file under the
// base name of its source (names, in the order the package was checked),
// then the generated file under the base name genFile
// (transform.GeneratedFile unless a build rule declared another). It
// returns the paths it wrote, in that order.
func WriteOutput(dir string, names []string, genFile string, out *transform.Output) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	for i, name := range names {
		path := filepath.Join(dir, filepath.Base(name))
		if err := os.WriteFile(path, out.Files[i], 0o644); err != nil {
			return nil, err
		}
		written = append(written, path)
	}
	gen := filepath.Join(dir, genFile)
	if err := os.WriteFile(gen, out.Gen, 0o644); err != nil {
		return nil, err
	}
	return append(written, gen), nil
}

// ModuleRoot returns the directory of the main module of dir.
func ModuleRoot(dir string, env []string) (modDir, goMod string, err error) {
	cmd := exec.Command("go", "env", "GOMOD")
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return "", "", fmt.Errorf("go env GOMOD: %w", err)
	}
	goMod = strings.TrimSpace(string(out))
	if goMod == "" || goMod == os.DevNull {
		return "", "", fmt.Errorf("%s is not inside a Go module (capture needs go.mod)", dir)
	}
	return filepath.Dir(goMod), goMod, nil
}

// Importer imports lp's dependencies from the export data `go list -export`
// listed in all (import paths mapped through lp's ImportMap).
func Importer(fset *token.FileSet, all map[string]*ListedPackage, lp *ListedPackage) types.Importer {
	return importer.ForCompiler(fset, "gc", listedExportData(all, lp))
}

// listedExportData opens the export data of the package lp imports as
// path, through lp's ImportMap.
func listedExportData(all map[string]*ListedPackage, lp *ListedPackage) func(string) (io.ReadCloser, error) {
	return func(path string) (io.ReadCloser, error) {
		if m, ok := lp.ImportMap[path]; ok {
			path = m
		}
		dep, ok := all[path]
		if !ok || dep.Export == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(dep.Export)
	}
}
