package frontend

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/tool/internal/load"
)

// TestTestCycle: an observed package's test files are compiled into it for
// replay only when none of their imports depends on it.
func TestTestCycle(t *testing.T) {
	s := &Session{Listed: map[string]*load.ListedPackage{
		"fmt":              {ImportPath: "fmt"},
		"example.com/m/a":  {ImportPath: "example.com/m/a"},
		"example.com/m/up": {ImportPath: "example.com/m/up", Deps: []string{"fmt", "example.com/m/a"}},
		"example.com/m/x":  {ImportPath: "example.com/m/x", Error: &struct{ Err string }{"no Go files"}},
	}}
	for _, c := range []struct {
		imports []string
		want    string
	}{
		{[]string{"fmt", "testing"}, "they import testing, which is not in the build"},
		{[]string{"fmt"}, ""},
		{[]string{"fmt", "example.com/m/up"}, "they import example.com/m/up, which imports example.com/m/a"},
		{[]string{"example.com/m/a"}, "they import the package itself"},
		{[]string{"example.com/m/x"}, "they import example.com/m/x: no Go files"},
	} {
		got := s.testCycle("example.com/m/a", c.imports)
		if c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
			t.Errorf("testCycle(%v) = %q, want %q...", c.imports, got, c.want)
		}
	}
}

// TestTestFuncs: the generated file refers to the functions of the test
// files that go test's main refers to (tests, benchmarks, fuzz targets,
// TestMain and examples with output), not to helpers, methods, generic
// functions, examples without output or init, and to the pointer types of
// the types it is given.
func TestTestFuncs(t *testing.T) {
	src := `package a

import "testing"

func TestA(t *testing.T) { type local struct{ A int }; _ = local{} }
func Testlower(t *testing.T) {}
func helper() int { return 1 }
func generic[T any](x T) T { return x }
func init() {}
func _() {}
type fixture struct{}
func (fixture) Method() {}
func BenchmarkB(b *testing.B) {}
func FuzzF(f *testing.F) {}
func ExampleRun() {
	type Post struct{ A int }
	// Output: 1
}
func ExampleNoOutput() {
	type Post struct{ B string }
}
`
	f, err := parser.ParseFile(token.NewFileSet(), "a_test.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := topLevelFuncs(f), []string{"TestA", "Testlower", "helper", "BenchmarkB", "FuzzF", "ExampleRun", "ExampleNoOutput"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("topLevelFuncs = %q, want %q", got, want)
	}
	funcs := testMainFuncs(f)
	if want := []string{"TestA", "BenchmarkB", "FuzzF", "ExampleRun"}; !reflect.DeepEqual(funcs, want) {
		t.Fatalf("testMainFuncs = %q, want %q", funcs, want)
	}
	out, err := keepSource("a", "_capture_testFuncs", funcs, keptTypes(f))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"package a\n", "_capture_testFuncs = []interface{}{\n\t\tBenchmarkB,\n\t\tExampleRun,\n\t\tFuzzF,\n\t\tTestA,\n\t\t(*fixture)(nil),\n\t}"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("generated file lacks %q:\n%s", want, out)
		}
	}
}

// TestRenameInits: a linked test file's init functions are renamed in
// place (they do not run in replay), lines kept.
func TestRenameInits(t *testing.T) {
	src := "package a\n\nfunc init() { register() }\n\nfunc register() {}\n\nfunc init() {}\n\nfunc (x T) init() {}\n\ntype T int\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "a_test.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := string(renameInits(fset, f, []byte(src), 2))
	want := "package a\n\nfunc _capture_init2_0() { register() }\n\nfunc register() {}\n\nfunc _capture_init2_1() {}\n\nfunc (x T) init() {}\n\ntype T int\n"
	if got != want {
		t.Errorf("renameInits =\n%s\nwant\n%s", got, want)
	}
}

// TestSitePackages: the packages of the module that generic sites' type
// arguments name are added to the build; listed ones, other modules' and
// directories without a non-test Go file are not.
func TestSitePackages(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"kind/kind.go":            "package kind\n",
		"onlytests/a_test.go":     "package onlytests\n",
		"listed/listed.go":        "package listed\n",
		"assert/assert.go":        "package assert\n",
		"nested/deeper/d.go":      "package deeper\n",
		"nested/deeper/d_test.go": "package deeper\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := &Session{Dir: dir, ModPath: "example.com/m", Listed: map[string]*load.ListedPackage{"example.com/m/listed": {}}}
	got := s.sitePackages([]string{
		"example.com/m/assert.Equal[example.com/m/kind.Kind]",
		"example.com/m/assert.Equal[map[example.com/m/listed.K][]*example.com/m/nested/deeper.D]",
		"example.com/m/assert.Equal[example.com/m/onlytests.T]",
		"example.com/m/assert.Equal[example.com/other.T]",
		"example.com/m/assert.Plain",
		"example.com/m/assert.Equal[example.com/m/listed/../kind.Kind]",
	})
	if want := []string{"example.com/m/kind", "example.com/m/nested/deeper"}; !reflect.DeepEqual(got, want) {
		t.Errorf("sitePackages = %q, want %q", got, want)
	}
}

// TestInternalImport: an external test package linked at P_test's import
// path may import only the internal packages Go's rule lets that path
// import (go test lets P_test import P's).
func TestInternalImport(t *testing.T) {
	for _, c := range []struct {
		path    string
		imports []string
		want    string
	}{
		{"example.com/m/a_test", []string{"fmt", "example.com/m/a"}, ""},
		{"example.com/m/a_test", []string{"example.com/m/internal/x"}, ""},
		{"example.com/m_test", []string{"fmt", "example.com/m/internal/x"}, "example.com/m/internal/x"},
		{"example.com/m/a_test", []string{"example.com/m/a/internal"}, "example.com/m/a/internal"},
		{"example.com/m/a_test", []string{"internal/abi"}, "internal/abi"},
	} {
		if got := internalImport(c.path, c.imports); got != c.want {
			t.Errorf("internalImport(%s, %q) = %q, want %q", c.path, c.imports, got, c.want)
		}
	}
}
