package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rules-capture/rules_capture/tool/internal/frontend"
	"github.com/rules-capture/rules_capture/tool/internal/harnessgen"
	"github.com/rules-capture/rules_capture/tool/transform"
)

func init() {
	register("instances", command{"write the Go file that makes a replay harness contain the generic instantiations its logs call", stdio(runInstances)})
}

// runInstances is what `capture replay` does for its own harness, for build
// systems that build the harness themselves (a Bazel action over the logs
// of a go_replay_test): see docs/boundary-model.md, "Generics".
func runInstances(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("capture instances", flag.ContinueOnError)
	fs.SetOutput(stderr)
	harness := fs.String("harness", "", "import path of the harness's main package (required)")
	observe := fs.String("observe", "", "comma-separated import paths of the observed packages (required)")
	out := fs.String("o", "", "output file (default: standard output)")
	deps := fs.String("dep", "", "comma-separated import paths of the other packages the harness links, whose types it may name (the standard library's always)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: capture instances -harness IMPORTPATH -observe PKG[,PKG] [-dep PKG[,PKG]] [-o FILE] LOG...")
		fmt.Fprintln(stderr, "\nWrites a file of package main that instantiates, for replay, the generic incalls\nthe logs call. Without any, the file only declares the package.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	obs := frontend.SplitList(*observe)
	if *harness == "" || len(obs) == 0 || fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	sites, err := frontend.IncallSites(fs.Args())
	if err != nil {
		fmt.Fprintln(stderr, "capture instances:", err)
		return 1
	}
	// No log adds a package to the harness's build: types of the packages
	// it links, and of the standard library's (a path whose first element
	// has no dot, which the go command never looks up as a module).
	linked := map[string]bool{}
	for _, p := range append(frontend.SplitList(*deps), obs...) {
		linked[p] = true
	}
	src, skipped, err := harnessgen.Instances(harnessgen.Harness{Package: "main", ImportPath: *harness, Observed: obs}, sites, transform.PackagesBuild(linked, transform.StandardPath))
	if err != nil {
		fmt.Fprintln(stderr, "capture instances:", err)
		return 1
	}
	for _, s := range skipped {
		fmt.Fprintf(stderr, "capture instances: cannot instantiate %s; replaying its calls will diverge\n", s)
	}
	if *out == "" {
		stdout.Write(src)
		return 0
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(stderr, "capture instances:", err)
		return 1
	}
	return 0
}
