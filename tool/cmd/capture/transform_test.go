package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rules-capture/rules_capture/tool/internal/load"
	"github.com/rules-capture/rules_capture/tool/transform"
)

// TestTransformBuildActionMode: given the files and the dependencies'
// export data (what a Bazel action has), `capture transform -importpath`
// writes exactly the instrumented source of the go-list front end (the
// golden files). Needs the go command to produce the export data.
func TestTransformBuildActionMode(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the go command")
	}
	root := repoRoot(t)
	module := filepath.Join(root, "testdata", "corpus", "basic")
	all, _, err := load.List(module, os.Environ(), nil, "example.com/basic/calc")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-importpath", "example.com/basic/calc", "-o", t.TempDir()}
	out := args[3]
	for path, p := range all {
		if p.Export != "" && path != "example.com/basic/calc" {
			args = append(args, "-dep", path+"="+p.Export)
		}
	}
	t.Chdir(module)
	args = append(args, "calc/calc.go")
	if code := runTransform(args); code != 0 {
		t.Fatalf("exit %d", code)
	}
	golden := filepath.Join(root, "tool", "transform", "testdata", "golden", "basic")
	for out, gold := range map[string]string{"calc.go": "calc.go.golden", transform.GeneratedFile: transform.GeneratedFile + ".golden"} {
		got, err := os.ReadFile(filepath.Join(args[3], out))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(golden, gold))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the go-list front end's output (%s)", out, gold)
		}
	}
	_ = out
	// A missing dependency is an error naming it, not a panic.
	if code := runTransform([]string{"-importpath", "example.com/basic/calc", "-o", t.TempDir(), "calc/calc.go"}); code != 1 {
		t.Fatalf("missing export data: exit %d, want 1", code)
	}
}
