// Command capture_bazel_transform is the Bazel front end of the capture
// transform: the CaptureTransform action of rules_capture's go_library runs it
// once per observed package. It type-checks the package against the export
// data of its direct dependencies (the .x files rules_go's compile actions
// produce, as nogo does) and writes the instrumented sources.
//
// Usage (normally from a params file, -param=FILE, one argument per line):
//
//	capture_bazel_transform -mode capture -importpath example.com/shop/pricing \
//	    -goos linux -goarch amd64 -stdlib bazel-out/.../stdlib_ \
//	    -observe example.com/shop/pricing -arc IMPORTPATH=IMPORTMAP=FILE ... \
//	    -out_dir bazel-out/.../pricing.capture a.go b.go
//
// Every source gets an output of the same base name in -out_dir: files that
// the build constraints exclude are copied unchanged (rules_go filters them
// again), the others are instrumented; the transform's generated file
// (-generated_file, the name the rule declared) is written next to them.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"go/build"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rules-capture/rules_capture/tool/transform"
)

func main() {
	run := run
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "stamp":
			run = runStamp
			os.Args = os.Args[1:]
		case "harness":
			run = runHarness
			os.Args = os.Args[1:]
		}
	}
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "capture_bazel_transform:", err)
		os.Exit(1)
	}
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// request is one transform action, as the Starlark rule describes it.
type request struct {
	mode       string
	importPath string
	ctxt       build.Context
	stdlibRoot string
	observed   []string
	archives   map[string]string // import path -> export data file
	outDir     string
	genFile    string // base name of the generated file in outDir, as the rule declared it
	srcs       []string
	testSrcs   []string // the package's _test.go files (-test_src): their unexported calls make incalls
	exitOnly   bool     // main package of a capture binary: only close the log at exit
}

func parseArgs(args []string) (*request, error) {
	args, err := expandParams(args)
	if err != nil {
		return nil, err
	}
	fs := flag.NewFlagSet("capture_bazel_transform", flag.ContinueOnError)
	var r request
	var tags, goos, goarch string
	var cgo bool
	var observe, arcs, testSrcs multiFlag
	fs.StringVar(&r.mode, "mode", "", "capture or replay")
	fs.StringVar(&r.importPath, "importpath", "", "import path of the package")
	fs.StringVar(&goos, "goos", "", "target GOOS (build constraints)")
	fs.StringVar(&goarch, "goarch", "", "target GOARCH (build constraints)")
	fs.StringVar(&tags, "tags", "", "comma-separated build tags")
	fs.BoolVar(&cgo, "cgo", false, "whether cgo is enabled (build constraints)")
	fs.StringVar(&r.stdlibRoot, "stdlib", "", "root of rules_go's compiled standard library (holds pkg/GOOS_GOARCH/*.a)")
	fs.Var(&observe, "observe", "import path of an observed package (repeated)")
	fs.Var(&arcs, "arc", "IMPORTPATH=IMPORTMAP=FILE of a direct dependency's export data (repeated)")
	fs.Var(&testSrcs, "test_src", "a _test.go file of the package's directory (repeated): the unexported functions and methods that those of the package itself (not P_test) call are wrapped as incalls")
	fs.StringVar(&r.outDir, "out_dir", "", "directory for the transformed sources")
	fs.StringVar(&r.genFile, "generated_file", transform.GeneratedFile, "base name of the generated file in -out_dir (the output the rule declared)")
	fs.BoolVar(&r.exitOnly, "exit_only", false, "the package is the main package of a capture binary: close the log when main returns or calls os.Exit, change nothing else")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch r.mode {
	case "capture", "replay":
	default:
		return nil, fmt.Errorf("-mode must be capture or replay, got %q", r.mode)
	}
	if r.outDir == "" {
		return nil, errors.New("-out_dir is required")
	}
	if r.genFile == "" || filepath.Base(r.genFile) != r.genFile || !strings.HasSuffix(r.genFile, ".go") {
		return nil, fmt.Errorf("-generated_file %q: want the base name of a .go file", r.genFile)
	}
	if !r.exitOnly && (r.importPath == "" || r.stdlibRoot == "") {
		return nil, errors.New("-importpath and -stdlib are required")
	}
	r.srcs = fs.Args()
	if len(r.srcs) == 0 {
		return nil, errors.New("no source files given")
	}
	r.observed = observe
	r.testSrcs = testSrcs
	r.archives = map[string]string{}
	for _, a := range arcs {
		parts := strings.SplitN(a, "=", 3)
		if len(parts) != 3 || parts[0] == "" || parts[2] == "" {
			return nil, fmt.Errorf("-arc %q: want IMPORTPATH=IMPORTMAP=FILE", a)
		}
		r.archives[parts[0]] = parts[2]
	}
	r.ctxt = build.Default
	r.ctxt.GOOS, r.ctxt.GOARCH = goos, goarch
	r.ctxt.CgoEnabled = cgo
	r.ctxt.BuildTags = nil
	if tags != "" {
		r.ctxt.BuildTags = strings.Split(tags, ",")
	}
	if goos == "" || goarch == "" {
		return nil, errors.New("-goos and -goarch are required")
	}
	return &r, nil
}

// expandParams replaces -param=FILE by the arguments in FILE, one per line
// (Bazel's "multiline" params file format).
func expandParams(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		name, ok := strings.CutPrefix(a, "-param=")
		if !ok {
			out = append(out, a)
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			out = append(out, sc.Text())
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("reading %s: %v", name, err)
		}
	}
	return out, nil
}

func run(args []string) error {
	r, err := parseArgs(args)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(r.outDir, 0o755); err != nil {
		return err
	}
	var compiled []string
	for _, src := range r.srcs {
		ok, err := r.ctxt.MatchFile(filepath.Dir(src), filepath.Base(src))
		if err != nil {
			return fmt.Errorf("%s: %v", src, err)
		}
		if !ok {
			if err := copyFile(src, filepath.Join(r.outDir, filepath.Base(src))); err != nil {
				return err
			}
			continue
		}
		compiled = append(compiled, src)
	}
	if r.exitOnly {
		return instrumentExit(r, compiled)
	}
	if len(compiled) == 0 {
		return fmt.Errorf("%s: no Go file matches the build constraints (GOOS=%s GOARCH=%s tags=%v); an observed package must have code for the target", r.importPath, r.ctxt.GOOS, r.ctxt.GOARCH, r.ctxt.BuildTags)
	}
	return transformPackage(r, compiled)
}

// openExportData finds the export data of an imported package: a direct
// dependency's .x file, or the standard library compiled by rules_go.
func openExportData(r *request, path string) (io.ReadCloser, error) {
	if f, ok := r.archives[path]; ok {
		return os.Open(f)
	}
	matches, _ := filepath.Glob(filepath.Join(r.stdlibRoot, "pkg", "*", filepath.FromSlash(path)+".a"))
	if len(matches) == 1 {
		return os.Open(matches[0])
	}
	return nil, fmt.Errorf("no export data for import %q: it is neither a direct dependency (add it to deps of the go_library) nor a standard library package", path)
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}
