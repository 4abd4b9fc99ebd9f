// Package load type-checks packages for the transform with the plain Go
// toolchain: `go list -export` gives each dependency's export data, and the
// package itself is type-checked from source against it — the same inputs
// a Bazel action has.
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
		Path    string
		Version string
		Dir     string
		GoMod   string
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

// Check parses and type-checks the listed package lp from source against
// the export data of its dependencies in all.
func Check(lp *ListedPackage, all map[string]*ListedPackage) (*transform.Package, error) {
	if lp.Error != nil {
		return nil, fmt.Errorf("%s: %s", lp.ImportPath, lp.Error.Err)
	}
	if len(lp.CgoFiles) > 0 {
		return nil, &transform.Error{Pos: token.Position{Filename: filepath.Join(lp.Dir, lp.CgoFiles[0]), Line: 1},
			Construct: "cgo (import \"C\")", Fix: "move the cgo code into a separate, unobserved package and call it from the observed one"}
	}
	var paths []string
	for _, name := range lp.GoFiles {
		paths = append(paths, filepath.Join(lp.Dir, name))
	}
	return CheckFiles(lp, paths, all)
}

// CheckFiles type-checks the files at paths as package lp (its ImportPath
// and ImportMap) against the export data in all.
func CheckFiles(lp *ListedPackage, paths []string, all map[string]*ListedPackage) (*transform.Package, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	var srcs [][]byte
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		srcs = append(srcs, src)
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Implicits:  map[ast.Node]types.Object{},
		Instances:  map[*ast.Ident]types.Instance{},
	}
	var errs []error
	conf := types.Config{
		Importer: Importer(fset, all, lp),
		Error: func(err error) {
			if len(errs) < 10 {
				errs = append(errs, err)
			}
		},
	}
	pkg, _ := conf.Check(lp.ImportPath, fset, files, info)
	if len(errs) > 0 {
		return nil, fmt.Errorf("type-checking %s: %w", lp.ImportPath, errors.Join(errs...))
	}
	return &transform.Package{Fset: fset, Files: files, Sources: srcs, Types: pkg, Info: info}, nil
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
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		if m, ok := lp.ImportMap[path]; ok {
			path = m
		}
		dep, ok := all[path]
		if !ok || dep.Export == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(dep.Export)
	})
}
