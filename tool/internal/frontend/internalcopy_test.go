package frontend

import (
	"go/ast"
	"go/parser"
	"go/token"
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

// TestInitCallsObserved: a test file's initialisation calls observed code
// where a package-level initialiser calls a function of the package or of
// an observed package, directly, through a test function it calls, through
// a function literal it calls or passes on, through a variable's function
// literal it calls, or calls a function value; a function literal that a
// called function returns runs nothing until it is called (cast's
// `toAny(cast.To[int])`); init functions do not count (the linked copies
// have them renamed).
func TestInitCallsObserved(t *testing.T) {
	s := &Session{Observed: []string{"example.com/m", "example.com/m/obs"}}
	head := "package m_test\n\nimport (\n\t\"encoding/base64\"\n\t\"math/big\"\n\t\"sort\"\n\n\t\"example.com/m/obs\"\n)\n\nvar _ = sort.Ints\n\nvar _ = big.NewInt\n\nvar _ = base64.StdEncoding\n\nfunc toAny(fn func(any) int) func(any) any { return func(i any) any { return fn(i) } }\n\n"
	for _, c := range []struct{ src, want string }{
		{"var m = map[string]func(any) any{\"int\": toAny(obs.To[int])}\n", ""},
		{"var x = obs.To[int](1)\n", "obs.To"},
		{"var y = toAny(nil)(1)\n", "a call of a function value"},
		{"func init() { sort.Slice(nil, func(i, j int) bool { return obs.Less() }) }\n", ""},
		{"var s = sort.SliceIsSorted(nil, func(i, j int) bool { return obs.Less() })\n", "obs.Less"},
		{"func setup() { obs.Do() }\n\nfunc init() { setup() }\n", ""},
		{"var f = func() { obs.Do() }\n\nvar _ = func() int { f(); return 0 }()\n", "obs.Do"},
		{"var z = func() int { return obs.N() }()\n", "obs.N"},
		{"var b = new(big.Int).Sub(big.NewInt(1), big.NewInt(2)).String()\n", ""},
		{"var c = obs.New().String()\n", "a method call"},
		{"var d = new(obs.T).String()\n", "a method call"},
		{"var e = x.String()\n", "a method call"},
		{"var g = base64.StdEncoding.EncodeToString(nil)\n", ""}, // chi's middleware
		{"var h = obs.V.String()\n", "a method call"},
		{"var i = func() int { fi := big.NewInt(1); return len(fi.String()) }()\n", ""}, // chi's fi := os.Stdout.Stat(); fi.Mode()
		{"var j = func() int { var fi fmt.Stringer; return len(fi.String()) }()\n", "a method call"},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "x_test.go", head+c.src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		got := s.initCallsObserved(token.NewFileSet(), []*ast.File{f}, "example.com/m")
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%q: initCallsObserved = %q, want %q", c.src, got, c.want)
		}
	}
}
