package load

import (
	"errors"
	"fmt"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/tool/transform"
)

func writeSource(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func noExportData(path string) (io.ReadCloser, error) {
	return nil, fmt.Errorf("no export data for %s", path)
}

// TestInputsCheck: the inputs' files are type-checked as the package named
// by ImportPath for GOARCH (the sizes of its types), their text kept beside
// the syntax; a file that imports "C" is rejected as a transform.Error at
// the import, before type-checking; a package that does not type-check
// names its import path and its errors, an import without export data
// among them.
func TestInputsCheck(t *testing.T) {
	a := writeSource(t, "a.go", "package a\n\nimport \"unsafe\"\n\nconst S = unsafe.Sizeof(0)\n\nfunc F(x int) int { return x + 1 }\n")
	p, err := Inputs{ImportPath: "example.com/a", Files: []string{a}, GOARCH: "386", ExportData: noExportData}.Check()
	if err != nil {
		t.Fatal(err)
	}
	if p.Types.Path() != "example.com/a" || p.Types.Scope().Lookup("F") == nil || len(p.Sources) != 1 || !strings.Contains(string(p.Sources[0]), "func F") {
		t.Errorf("checked package: path %s, sources %q", p.Types.Path(), p.Sources)
	}
	if s := p.Types.Scope().Lookup("S").(*types.Const).Val().String(); s != "4" {
		t.Errorf("GOARCH 386: unsafe.Sizeof(0) = %s, want 4", s)
	}

	c := writeSource(t, "c.go", "package c\n\n// #include <stdio.h>\nimport \"C\"\n\nfunc G() {}\n")
	_, err = Inputs{ImportPath: "example.com/c", Files: []string{c}, ExportData: noExportData}.Check()
	var te *transform.Error
	if !errors.As(err, &te) || te.Pos.Line != 4 || !strings.Contains(te.Construct, "cgo") {
		t.Errorf("cgo: want a transform.Error at line 4, got %v", err)
	}

	bad := writeSource(t, "bad.go", "package bad\n\nimport \"example.com/dep\"\n\nvar X int = \"s\"\n\nvar Y = dep.Z\n")
	_, err = Inputs{ImportPath: "example.com/bad", Files: []string{bad}, ExportData: noExportData}.Check()
	if err == nil || !strings.HasPrefix(err.Error(), "type-checking example.com/bad: ") || !strings.Contains(err.Error(), "no export data for example.com/dep") || !strings.Contains(err.Error(), "cannot use \"s\"") {
		t.Errorf("type errors: got %v", err)
	}
}

// TestWriteOutput: each instrumented file is written under its source's
// base name, the generated file under the name given, into a directory
// made for them; the paths come back in that order.
func TestWriteOutput(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out", "pkg")
	out := &transform.Output{Files: [][]byte{[]byte("one"), []byte("two")}, Gen: []byte("gen")}
	written, err := WriteOutput(dir, []string{"src/a.go", "/abs/b.go"}, "declared_gen.go", out)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "a.go"), filepath.Join(dir, "b.go"), filepath.Join(dir, "declared_gen.go")}
	if strings.Join(written, " ") != strings.Join(want, " ") {
		t.Fatalf("written %q, want %q", written, want)
	}
	for i, text := range []string{"one", "two", "gen"} {
		if b, err := os.ReadFile(want[i]); err != nil || string(b) != text {
			t.Errorf("%s: %q, %v; want %q", want[i], b, err, text)
		}
	}
}
