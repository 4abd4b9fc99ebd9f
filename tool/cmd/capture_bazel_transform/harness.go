package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/rules-capture/rules_capture/tool/internal/frontend"
	"github.com/rules-capture/rules_capture/tool/internal/harnessgen"
	"github.com/rules-capture/rules_capture/tool/transform"
)

// The harness step (`capture_bazel_transform harness ...`, the
// CaptureHarness action of go_replay_test) writes the sources of the replay
// test, as `capture replay` writes its harness (harnessgen.Generate): the
// test main, with the test's label, check level, observed packages and the
// runfiles paths of its logs, and one test function per shard; and the file
// that names every generic instantiation its logs call, since Go contains
// an instantiation only where code names it.
//
//	capture_bazel_transform harness -package capture_replay_test \
//	    -target //pkg:name -check strict -shards N \
//	    -observe IMPORTPATH ... -dep IMPORTPATH ... \
//	    -runfile RLOCATION ... -main FILE -o FILE LOG...
//
// -runfile gives, in order, where the test finds each LOG at run time. The
// action says on stderr which instantiations it cannot make (also those
// whose type arguments are of a package the harness does not link: neither
// observed nor a -dep): replaying their calls diverges, naming them, as
// with `capture replay`.

type harnessRequest struct {
	test     harnessgen.Test
	pkg      string
	harness  string
	observed []string
	deps     map[string]bool // import paths the harness links directly
	main     string
	out      string
	logs     []string
}

func parseHarnessArgs(args []string) (*harnessRequest, error) {
	args, err := expandParams(args)
	if err != nil {
		return nil, err
	}
	fs := flag.NewFlagSet("capture_bazel_transform harness", flag.ContinueOnError)
	var r harnessRequest
	var observe, deps, runfiles multiFlag
	fs.StringVar(&r.pkg, "package", "", "package name of the harness sources")
	fs.StringVar(&r.harness, "harness", "", "import path the harness's internal-package imports are checked from (default: under the observed packages' common parent)")
	fs.StringVar(&r.test.Target, "target", "", "label of the go_replay_test, for messages")
	fs.StringVar(&r.test.Check, "check", "", "check level of the replay")
	fs.IntVar(&r.test.Shards, "shards", 0, "Bazel shard count of the test (0: not sharded)")
	fs.Var(&observe, "observe", "import path of an observed package (repeatable)")
	fs.Var(&deps, "dep", "import path of another library the harness links directly (repeatable)")
	fs.Var(&runfiles, "runfile", "runfiles path of the next log (repeatable; one per LOG, in order)")
	fs.StringVar(&r.main, "main", "", "output file: the test main")
	fs.StringVar(&r.out, "o", "", "output file: the generic instantiations")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	r.observed, r.logs, r.test.Logs = observe, fs.Args(), runfiles
	r.deps = map[string]bool{}
	for _, d := range append(observe, deps...) {
		r.deps[d] = true
	}
	switch {
	case r.pkg == "":
		return nil, errors.New("harness: -package is required")
	case r.main == "" || r.out == "":
		return nil, errors.New("harness: -main and -o are required")
	case r.test.Target == "" || r.test.Check == "":
		return nil, errors.New("harness: -target and -check are required")
	case len(r.observed) == 0:
		return nil, errors.New("harness: at least one -observe is required")
	case len(runfiles) != len(r.logs):
		return nil, fmt.Errorf("harness: %d -runfile paths for %d logs", len(runfiles), len(r.logs))
	}
	if r.harness == "" {
		r.harness = path.Join(commonParent(r.observed), frontend.HarnessDir)
	}
	return &r, nil
}

// commonParent is the longest import path every observed package is in or
// under: where `capture replay` puts its harness when the observed packages
// share a module root, so both paths can name the same internal types.
func commonParent(paths []string) string {
	common := strings.Split(paths[0], "/")
	for _, p := range paths[1:] {
		elems := strings.Split(p, "/")
		n := 0
		for n < len(common) && n < len(elems) && common[n] == elems[n] {
			n++
		}
		common = common[:n]
	}
	return strings.Join(common, "/")
}

func runHarness(args []string) error {
	r, err := parseHarnessArgs(args)
	if err != nil {
		return err
	}
	// The logs are inputs of the action, and the instantiations are made
	// from their sites: one no capture writes fails the action, naming the
	// log and the site (frontend.IncallSites), and nothing is built from it.
	sites, err := frontend.IncallSites(r.logs)
	if err != nil {
		return fmt.Errorf("harness: %w", err)
	}
	files, err := harnessgen.Generate(harnessgen.Harness{Package: r.pkg, ImportPath: r.harness, Observed: r.observed, Test: &r.test}, sites, linkedBuild{r.deps})
	if err != nil {
		return fmt.Errorf("harness: %w", err)
	}
	for _, s := range files.Skipped {
		fmt.Fprintf(os.Stderr, "capture_bazel_transform harness: cannot instantiate %s; replaying its calls will diverge\n", s)
	}
	if err := os.WriteFile(r.main, files.Main, 0o644); err != nil {
		return err
	}
	return os.WriteFile(r.out, files.Instances, 0o644)
}

// linkedBuild is the harness's build as the action knows it: the packages
// it links directly (rules_go compiles a package against its direct deps
// only) and the standard library. An instantiation whose type argument is of
// another package is skipped, naming the package and the fix: the harness
// would not build, and no log adds a package to it.
type linkedBuild struct{ deps map[string]bool }

func (b linkedBuild) Instantiable(s *transform.InstanceSite) error {
	err := transform.PackagesBuild(b.deps, transform.StandardPath).Instantiable(s)
	var missing *transform.NotInBuildError
	if errors.As(err, &missing) {
		return fmt.Errorf("the replay harness does not link %s: add its go_library to the go_replay_test's deps (marked '# keep' if Gazelle writes the rule: it recomputes deps from the main package's imports)", strings.Join(missing.Packages, ", "))
	}
	return err
}
