package frontend

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/tool/internal/load"
)

// TestModuleNames: the qualified names of the module's types are found in
// type names as logs spell them (composites, func types, external test
// packages, fingerprints), not in longer paths or other modules.
func TestModuleNames(t *testing.T) {
	names := map[string]map[string]bool{}
	for _, s := range []string{
		"\x0cfunc(example.com/m/test/mock.Env, int) int",
		"[]*example.com/m/test/mock.Foo",
		"map[string]*example.com/m/issues/756_test.X",
		"example.com/m.Root·b86011d31c9c7710",
		"example.com/m_test.Data",
		"example.com/mod/other.T",
		"\x2aexample.com/m/enc.Named",
		"2example.com/m/enc.Len",
		"example.com/m/pkg.",
		"(*example.com/m/ast.base).SetNature",
	} {
		moduleNames(s, "example.com/m", names)
	}
	want := map[string]map[string]bool{
		"example.com/m/test/mock":       {"Env": true, "Foo": true},
		"example.com/m/issues/756_test": {"X": true},
		"example.com/m":                 {"Root": true},
		"example.com/m_test":            {"Data": true},
		"example.com/m/ast":             {"base": true},
		"example.com/m/enc":             {"Named": true, "Len": true},
	}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("moduleNames = %v\nwant %v", names, want)
	}
}

// TestClassifyNames: a package-level type of a package's non-test files
// needs the package kept; any other of its types its test files; a type
// of its external test package that package and its test files. Observed
// packages and packages of other modules are not classified.
func TestClassifyNames(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"mock/mock.go":      "package mock\n\ntype Env struct{}\n",
		"user/user.go":      "package user\n\ntype Public int\n",
		"user/user_test.go": "package user\n\ntype inPkg int\n",
		"user/x_test.go":    "package user_test\n\ntype Ext int\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := &Session{Dir: dir, ModPath: "example.com/m", Observed: []string{"example.com/m/obs"}, Listed: map[string]*load.ListedPackage{
		"example.com/m/mock": {ImportPath: "example.com/m/mock", Name: "mock", Dir: filepath.Join(dir, "mock"), GoFiles: []string{"mock.go"}},
		"example.com/m/user": {ImportPath: "example.com/m/user", Name: "user", Dir: filepath.Join(dir, "user"), GoFiles: []string{"user.go"},
			TestGoFiles: []string{"user_test.go"}, XTestGoFiles: []string{"x_test.go"}},
		"example.com/m/obs": {ImportPath: "example.com/m/obs", Name: "obs"},
	}}
	got := s.classifyNames(map[string]map[string]bool{
		"example.com/m/mock":      {"Env": true},
		"example.com/m/user":      {"inPkg": true},
		"example.com/m/user_test": {"Ext": true},
		"example.com/m/obs":       {"T": true},
		"example.com/other/x":     {"T": true},
	})
	want := map[string]needs{
		"example.com/m/mock": {pkg: true},
		"example.com/m/user": {tests: true, xtest: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("classifyNames = %+v\nwant %+v", got, want)
	}
	if got := s.namedTestPackages(map[string]map[string]bool{"example.com/m/user_test": nil, "example.com/m/mock": nil, "example.com/m/none": nil, "example.com/m/../x": nil}); !reflect.DeepEqual(got, []string{"example.com/m/mock", "example.com/m/user"}) {
		t.Errorf("namedTestPackages = %q", got)
	}
}

// TestKeptTypes: the keep file names every non-generic package-level type
// but constraint interfaces.
func TestKeptTypes(t *testing.T) {
	src := "package p\n\ntype A struct{}\ntype G[T any] struct{}\ntype I interface{ M() }\ntype C interface{ ~int | ~float64 }\ntype E interface{ I }\ntype Al = A\n"
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keptTypes(f), []string{"A", "I", "Al"}; !reflect.DeepEqual(got, want) {
		t.Errorf("keptTypes = %q, want %q", got, want)
	}
}

// TestInitConversion: a package-level initialiser that converts to a type
// of a package that may run observed code (patcher/value's
// `expr.Option(func(...) {...})`) calls nothing; one that calls its
// function does.
func TestInitConversion(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "obs.go"), []byte("package obs\n\ntype Option func()\n\nfunc New() Option { return nil }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Session{Observed: []string{"example.com/m/obs"}, Listed: map[string]*load.ListedPackage{
		"example.com/m/obs": {ImportPath: "example.com/m/obs", Name: "obs", Dir: dir, GoFiles: []string{"obs.go"}},
	}}
	for src, want := range map[string]string{
		"var v = obs.Option(func() {})\n": "",
		"var w = obs.New()\n":             "obs.New",
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "v.go", "package v\n\nimport \"example.com/m/obs\"\n\n"+src, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := s.initCalls(token.NewFileSet(), []*ast.File{f}, "example.com/m/v", true)
		if want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("%q: initCalls = %q, want %q", src, got, want)
		}
	}
}
