package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rules-capture/rules_capture/tool/transform"
)

// TestTransformWritesGolden: `capture transform -o DIR PKG` writes the
// instrumented package into DIR/PKG: the transform's golden files, with the
// //line directives naming the sources by their absolute paths (the go
// command's file names) instead of the goldens' module-relative ones. A
// package that is not listed is an error naming it. Needs the go command.
func TestTransformWritesGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the go command")
	}
	root := repoRoot(t)
	module := filepath.Join(root, "testdata", "corpus", "basic")
	t.Chdir(module)
	out := t.TempDir()
	if code := runTransform([]string{"-o", out, "example.com/basic/calc"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	golden := filepath.Join(root, "tool", "transform", "testdata", "golden", "basic")
	for name, gold := range map[string]string{"calc.go": "calc.go.golden", transform.GeneratedFile: transform.GeneratedFile + ".golden"} {
		got, err := os.ReadFile(filepath.Join(out, "example.com", "basic", "calc", name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(golden, gold))
		if err != nil {
			t.Fatal(err)
		}
		got = bytes.ReplaceAll(got, []byte("//line "+module+string(filepath.Separator)), []byte("//line "))
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the golden file %s:\n%s", name, gold, got)
		}
	}
	if code := runTransform([]string{"-o", t.TempDir(), "example.com/basic/nosuch"}); code != 1 {
		t.Fatalf("a package that is not listed: exit %d, want 1", code)
	}
}
