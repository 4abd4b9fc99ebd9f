// Package stamp_test checks the metadata of a log written by a capture binary
// built with Bazel (go_capture_binary): it names the observed packages by
// import path and carries the hash of their sources, as `capture build` does
// (rules/private/stamp.bzl).
package stamp_test

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/tool/transform"
)

var (
	captureBin = flag.String("capture_binary", "", "the go_capture_binary under test")
	captureCLI = flag.String("capture_cli", "", "the capture command (//tool/cmd/capture)")
	importPath = flag.String("observed", "", "import path of the observed package")
	sources    = flag.String("sources", "", "space-separated sources of the observed package")
)

// runfile resolves a $(rootpath) argument: rules_go runs a test in its
// package's directory, the paths are relative to the workspace's runfiles.
func runfile(rel string) string {
	if dir := os.Getenv("TEST_SRCDIR"); dir != "" && !filepath.IsAbs(rel) {
		return filepath.Join(dir, os.Getenv("TEST_WORKSPACE"), rel)
	}
	return rel
}

func TestLogMetadata(t *testing.T) {
	if *captureBin == "" {
		t.Skip("run by Bazel: bazel test //rules/tests/stamp:stamp_test")
	}
	log := filepath.Join(t.TempDir(), "app.arrow")
	cmd := exec.Command(runfile(*captureBin), "ann")
	cmd.Env = []string{"CAPTURE_LOG=" + log, "APP_HOUR=9"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", *captureBin, err, out)
	}
	r, err := eventlog.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	meta := r.Meta()
	r.Close()

	if want := []string{*importPath}; !slices.Equal(meta.ObservedPackages, want) {
		t.Errorf("observed packages in the log: %q, want the import paths %q (not Bazel labels)", meta.ObservedPackages, want)
	}
	// The hash of the sources the binary was built from, computed here from
	// the source files themselves.
	p := transform.PackageSources{ImportPath: *importPath}
	for _, src := range strings.Fields(*sources) {
		text, err := os.ReadFile(runfile(src))
		if err != nil {
			t.Fatal(err)
		}
		p.Files = append(p.Files, transform.SourceFile{Name: filepath.Base(src), Text: text})
	}
	if want := transform.SourceHash([]transform.PackageSources{p}); meta.SourceHash != want {
		t.Errorf("source hash in the log: %q, want %q", meta.SourceHash, want)
	}

	// What a user sees: capture inspect's header line.
	out, err := exec.Command(runfile(*captureCLI), "inspect", log).CombinedOutput()
	if err != nil {
		t.Fatalf("capture inspect: %v\n%s", err, out)
	}
	var header string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "# observed ") {
			header = line
			break
		}
	}
	if !strings.Contains(header, "# observed "+*importPath+",") || !strings.HasSuffix(header, "sources "+meta.SourceHash) {
		t.Errorf("capture inspect header %q: want the import path and the source hash %s", header, meta.SourceHash)
	}
}
