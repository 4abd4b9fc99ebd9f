package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/tool/internal/load"
)

// TestInternalCopies: an external test package's imports of its module's
// internal packages (and theirs) are of copies at paths without an
// "internal" element, its files and the copies' import the copies in place
// (lines kept), data directories are copied along, and a test package
// declaring a type made of a copied package's type is refused; an
// internal package of another module cannot be copied.
func TestInternalCopies(t *testing.T) {
	mod := t.TempDir()
	write := func(rel, src string) {
		p := filepath.Join(mod, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("internal/a/a.go", "package a\n\nimport \"example.com/m/internal/b\"\n\n//go:embed data\nvar X = b.Y\n")
	write("internal/a/a_test.go", "package a\n")
	write("internal/a/data/d.txt", "data")
	write("internal/b/b.go", "package b\n\nvar Y = 1\n")
	write("x_test.go", "package m_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/internal/a\"\n)\n\nfunc TestX(t *testing.T) { _ = a.X }\n")
	write("y_test.go", "package m_test\n\nimport \"example.com/m/internal/a\"\n\ntype Made struct{ F a.T }\n")
	s := &Session{ModPath: "example.com/m", Listed: map[string]*load.ListedPackage{
		"example.com/m/internal/a": {ImportPath: "example.com/m/internal/a", Dir: filepath.Join(mod, "internal", "a")},
		"example.com/m/internal/b": {ImportPath: "example.com/m/internal/b", Dir: filepath.Join(mod, "internal", "b")},
	}}
	dir := filepath.Join(t.TempDir(), "xtest")
	copies, why := s.internalCopies("example.com/m_test", dir, []string{"testing", "example.com/m", "example.com/m/internal/a"})
	if why != "" || len(copies) != 2 || copies["example.com/m/internal/b"].path != "example.com/m_test/zz_capture_copy/internal_/b" {
		t.Fatalf("internalCopies = %+v, %q", copies, why)
	}
	if at := typesMadeOf(mod, []string{"x_test.go"}, copies); at != "" {
		t.Errorf("typesMadeOf(x_test.go) = %q, want none", at)
	}
	if at := typesMadeOf(mod, []string{"x_test.go", "y_test.go"}, copies); at != "y_test.go:5" {
		t.Errorf("typesMadeOf(y_test.go) = %q, want y_test.go:5", at)
	}
	if err := s.writeInternalCopies(copies); err != nil {
		t.Fatal(err)
	}
	a, err := os.ReadFile(filepath.Join(dir, copyDir, "internal_", "a", "a.go"))
	if err != nil || !strings.Contains(string(a), `import "example.com/m_test/zz_capture_copy/internal_/b"`) || strings.Count(string(a), "\n") != 6 {
		t.Errorf("copy of a.go: %q, %v", a, err)
	}
	if _, err := os.Stat(filepath.Join(dir, copyDir, "internal_", "a", "a_test.go")); err == nil {
		t.Error("a test file was copied")
	}
	if d, err := os.ReadFile(filepath.Join(dir, copyDir, "internal_", "a", "data", "d.txt")); err != nil || string(d) != "data" {
		t.Errorf("data directory: %q, %v", d, err)
	}
	if _, why := s.internalCopies("example.com/m_test", dir, []string{"example.com/other/internal/c"}); !strings.Contains(why, "only go test lets it import") {
		t.Errorf("another module's internal package: %q", why)
	}
}
