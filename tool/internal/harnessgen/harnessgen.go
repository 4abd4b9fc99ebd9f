// Package harnessgen writes the Go sources of a replay harness, for both
// front ends: the test package of a Bazel go_replay_test (written by the
// CaptureHarness action, `capture_bazel_transform harness`) and the main
// package `capture replay` builds. A harness has two files: its main file
// (the test main and one test function per shard, or func main), made from
// the templates in templates/, and its file of generic instantiations, made
// from the sites of the logs to replay (transform.HarnessInstances). It also
// writes the TestMain `capture test` adds to a test package.
package harnessgen

import (
	"bytes"
	"embed"
	"fmt"
	"go/format"
	"go/token"
	"sort"
	"text/template"

	"github.com/rules-capture/rules_capture/tool/transform"
)

// HarnessImport is the import path of the package the generated test main
// of a go_replay_test calls (rules/private/harness).
const HarnessImport = "github.com/rules-capture/rules_capture/rules/private/harness"

// TestPackage is the package name of a go_replay_test's generated sources.
const TestPackage = "capture_replay_test"

// A Harness describes the replay harness to write.
type Harness struct {
	// Package is the harness's package name: "main" for `capture replay`,
	// a test package for a go_replay_test.
	Package string
	// ImportPath is where the harness's package is, for the import checks
	// of its instantiations (an internal package is importable only from
	// under its parent).
	ImportPath string
	// Observed are the import paths of the observed packages: the harness
	// links them instrumented for replay.
	Observed []string
	// Test, when set, makes the harness a go_replay_test's test package;
	// without it the harness is a main package that replays the log named
	// by the environment.
	Test *Test
}

// Test is what a go_replay_test knows at build time (rules/private/harness's
// Config).
type Test struct {
	Target string   // the test's Bazel label, for messages
	Check  string   // the check level
	Logs   []string // runfiles paths (<repo>/<path>) of the logs, in order
	// Shards is the Bazel shard count: rules_go's test main deals top-level
	// tests round-robin to shards, so one test function per shard makes
	// Bazel's sharding split the logs (the harness checks that each function
	// runs in its own shard). 0 or 1: one test function.
	Shards int
}

// Files are the sources of a harness.
type Files struct {
	Main      []byte // the test main, or func main
	Instances []byte // the generic instantiations the logs call (always a valid file)
	// Skipped names each generic incall the harness cannot instantiate and
	// why: replaying a call of it diverges, naming it.
	Skipped []string
}

//go:embed templates/*.tmpl
var templateFiles embed.FS

var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"quote": func(s string) string { return fmt.Sprintf("%q", s) },
}).ParseFS(templateFiles, "templates/*.tmpl"))

// Generate writes the sources of h, instantiating the generic incalls named
// by sites (the CALL_IN sites of the logs, frontend.IncallSites) that build
// can instantiate. A site outside the grammar of sites is an error (the log
// is corrupt or hostile) and then there are no files.
func Generate(h Harness, sites []string, build transform.ReplayBuild) (*Files, error) {
	if err := h.check(); err != nil {
		return nil, err
	}
	main, err := h.main()
	if err != nil {
		return nil, err
	}
	inst, skipped, err := Instances(h, sites, build)
	if err != nil {
		return nil, err
	}
	return &Files{Main: main, Instances: inst, Skipped: skipped}, nil
}

// Instances writes only the harness's file of instantiations (Generate),
// for a build that writes the rest of the harness itself. Without any
// instantiation the file only declares the package: a build action declares
// it before it knows whether the logs call any.
func Instances(h Harness, sites []string, build transform.ReplayBuild) (src []byte, skipped []string, err error) {
	if err := h.check(); err != nil {
		return nil, nil, err
	}
	src, skipped, err = transform.HarnessInstances(h.Package, h.ImportPath, h.Observed, sites, build)
	if err != nil || src != nil {
		return src, skipped, err
	}
	src, err = render("instances_none.go.tmpl", struct{ Header, Package string }{transform.InstancesHeader, h.Package})
	return src, skipped, err
}

func (h Harness) check() error {
	if !token.IsIdentifier(h.Package) {
		return fmt.Errorf("replay harness: package name %q is not a Go identifier", h.Package)
	}
	if h.Test == nil && h.Package != "main" {
		return fmt.Errorf("replay harness: a harness that is no test is package main, not %q", h.Package)
	}
	return nil
}

// CaptureTestMain writes the TestMain that `capture test` adds to a test
// package (pkg) without one: it closes the capture log before the test
// process exits.
func CaptureTestMain(pkg string) ([]byte, error) {
	if !token.IsIdentifier(pkg) {
		return nil, fmt.Errorf("capture test main: package name %q is not a Go identifier", pkg)
	}
	return render("capture_test_main.go.tmpl", struct{ Package, Probe string }{pkg, transform.ProbeImport})
}

// mainData is what the main templates are executed with.
type mainData struct {
	Package  string
	Observed []string
	Probe    string // the probe runtime's import path
	Harness  string // rules/private/harness's import path
	*Test
	Funcs []string // the test functions, one per shard
}

func (h Harness) main() ([]byte, error) {
	d := mainData{Package: h.Package, Observed: uniqueSorted(h.Observed), Probe: transform.ProbeImport, Harness: HarnessImport, Test: h.Test}
	if h.Test == nil {
		return render("main.go.tmpl", d)
	}
	d.Funcs = testFuncNames(h.Test.Shards)
	return render("test_main.go.tmpl", d)
}

// testFuncNames are the replay test functions of a test with shards shards.
func testFuncNames(shards int) []string {
	if shards <= 1 {
		return []string{"TestReplay"}
	}
	names := make([]string, shards)
	for i := range names {
		names[i] = fmt.Sprintf("TestReplayShard%d", i)
	}
	return names
}

// render executes a template and formats its output; the templates are
// written gofmt-clean, and formatting checks that the result is Go.
func render(name string, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, name, data); err != nil {
		return nil, fmt.Errorf("replay harness: %v", err)
	}
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("replay harness: %s is not Go: %v\n%s", name, err, b.Bytes())
	}
	return out, nil
}

func uniqueSorted(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
