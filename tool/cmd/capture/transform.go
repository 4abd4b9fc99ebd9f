package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rules-capture/rules_capture/tool/internal/load"
	"github.com/rules-capture/rules_capture/tool/transform"
)

func init() {
	register("transform", command{"write the instrumented source of observed packages", runTransform})
}

// runTransform instruments packages of the module in the current directory
// and writes the result to a directory: what the build's overlay holds, for
// reading and for build systems that compile the output themselves.
func runTransform(args []string) int {
	fs := flag.NewFlagSet("capture transform", flag.ContinueOnError)
	observe := fs.String("observe", "", "comma-separated import paths of the whole observed set (default: the packages given)")
	out := fs.String("o", "", "output directory (required): one subdirectory per package (with -importpath: the files themselves)")
	importPath := fs.String("importpath", "", "build-action mode: the import path of the one package whose FILEs are given")
	var deps, importMap listFlag
	fs.Var(&deps, "dep", "build-action mode: IMPORTPATH=EXPORTDATA of a dependency (repeated)")
	fs.Var(&importMap, "importmap", "build-action mode: SOURCEPATH=IMPORTPATH import path mapping (repeated)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: capture transform [-observe PKG[,PKG]] -o DIR PKG...")
		fmt.Fprintln(os.Stderr, "       capture transform -importpath PKG [-observe PKG[,PKG]] -dep PATH=FILE... -o DIR FILE.go...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if *importPath != "" {
		return transformFiles(*importPath, splitComma(*observe), deps, importMap, *out, fs.Args())
	}
	obs := splitComma(*observe)
	if len(obs) == 0 {
		obs = fs.Args()
	}
	all, _, err := load.List(".", os.Environ(), nil, fs.Args()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture transform:", err)
		return 1
	}
	status := 0
	for _, path := range fs.Args() {
		lp, ok := all[path]
		if !ok {
			fmt.Fprintf(os.Stderr, "capture transform: %s: not found (give import paths)\n", path)
			status = 1
			continue
		}
		pkg, err := load.Check(lp, all)
		if err != nil {
			fmt.Fprintln(os.Stderr, "capture transform:", err)
			status = 1
			continue
		}
		res, err := transform.Instrument(pkg, transform.Options{Observed: obs})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			status = 1
			continue
		}
		dir := filepath.Join(*out, filepath.FromSlash(path))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "capture transform:", err)
			return 1
		}
		for i, name := range lp.GoFiles {
			if err := os.WriteFile(filepath.Join(dir, name), res.Files[i], 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "capture transform:", err)
				return 1
			}
		}
		if err := os.WriteFile(filepath.Join(dir, transform.GeneratedFile), res.Gen, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "capture transform:", err)
			return 1
		}
	}
	return status
}

func splitComma(v string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(v); i++ {
		if i == len(v) || v[i] == ',' {
			if i > start {
				out = append(out, v[start:i])
			}
			start = i + 1
		}
	}
	return out
}

type listFlag []string

func (l *listFlag) String() string     { return fmt.Sprint(*l) }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// transformFiles is the build-action mode: the package's files and the
// export data of its dependencies are given, nothing is listed or built.
func transformFiles(importPath string, observed []string, deps, importMap []string, out string, files []string) int {
	exports := map[string]string{}
	for _, d := range deps {
		path, file, ok := strings.Cut(d, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "capture transform: -dep %q: want IMPORTPATH=FILE\n", d)
			return 2
		}
		exports[path] = file
	}
	mapping := map[string]string{}
	for _, m := range importMap {
		from, to, ok := strings.Cut(m, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "capture transform: -importmap %q: want SOURCEPATH=IMPORTPATH\n", m)
			return 2
		}
		mapping[from] = to
	}
	lp := &load.ListedPackage{ImportPath: importPath, ImportMap: mapping}
	all := map[string]*load.ListedPackage{}
	for path, file := range exports {
		all[path] = &load.ListedPackage{ImportPath: path, Export: file}
	}
	pkg, err := load.CheckFiles(lp, files, all)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture transform:", err)
		return 1
	}
	pkg.DisplayNames = files
	if len(observed) == 0 {
		observed = []string{importPath}
	}
	res, err := transform.Instrument(pkg, transform.Options{Observed: observed})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "capture transform:", err)
		return 1
	}
	for i, f := range files {
		if err := os.WriteFile(filepath.Join(out, filepath.Base(f)), res.Files[i], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "capture transform:", err)
			return 1
		}
	}
	if err := os.WriteFile(filepath.Join(out, transform.GeneratedFile), res.Gen, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "capture transform:", err)
		return 1
	}
	return 0
}
