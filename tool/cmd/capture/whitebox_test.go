package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/tool/internal/load"
)

// whiteBoxPackage writes package p (p.go declares T with an unexported
// field clock) with the given test file and returns it, listed.
func whiteBoxPackage(t *testing.T, testSrc string) *load.ListedPackage {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "p")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"p.go":      "package p\n\ntype T struct {\n\tclock func() int\n\tN     int\n}\n\nfunc New() *T { return &T{} }\n\nfunc (t *T) setClock(f func() int) { t.clock = f }\n\nfunc (t *T) peek() int { return t.N }\n",
		"p_test.go": testSrc,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &load.ListedPackage{ImportPath: "example.com/p", Name: "p", Dir: dir, GoFiles: []string{"p.go"}, TestGoFiles: []string{"p_test.go"}}
}

// TestWhiteBoxWrites: an in-package test writing an unexported field of an
// observed type is rejected with file:line, the field and the fix (study
// repro clockfield); exported fields and fields of test doubles are not.
func TestWhiteBoxWrites(t *testing.T) {
	lp := whiteBoxPackage(t, "package p\n\nimport \"testing\"\n\ntype fake struct{ clock int }\n\nfunc TestX(t *testing.T) {\n\tx := New()\n\tx.N = 2\n\tvar f fake\n\tf.clock = 1\n\tx.clock = func() int { return f.clock }\n}\n")
	pkgWide, tests, err := whiteBoxWrites(nil, lp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgWide) != 0 || len(tests) != 1 {
		t.Fatalf("got package-wide %q and tests %q, want TestX only", pkgWide, tests)
	}
	for _, want := range []string{"p/p_test.go:12:4:", "unexported field clock of an observed example.com/p.T", "is not supported in an observed package", "constructor option"} {
		if !strings.Contains(tests["TestX"], want) {
			t.Errorf("message lacks %q: %s", want, tests["TestX"])
		}
	}
	lp.TestGoFiles = nil
	if pkgWide, tests, _ := whiteBoxWrites(nil, lp, nil); len(pkgWide)+len(tests) != 0 {
		t.Errorf("no in-package tests: got %q, %q", pkgWide, tests)
	}
}

// TestWhiteBoxWritesPerTest: only the tests that reach a write are
// rejected (each runs in its own process, so the others are unaffected):
// through helpers of the test files, function values, and methods of a
// test type that observed code may call through an interface (gorilla/mux:
// one helper, testUseEscapedRoute, of 66 tests writes Route.useEncodedPath).
// A write reached from an init function, a variable initialiser or
// TestMain spoils every test: the package is rejected.
func TestWhiteBoxWritesPerTest(t *testing.T) {
	src := `package p

import "testing"

func escaped(x *T) { x.clock = nil }

func indirect(x *T) { escaped(x) }

type hook struct{ x *T }

func (h hook) Fire() { h.x.clock = nil }

func TestHelper(t *testing.T) { indirect(New()) }

func TestFuncValue(t *testing.T) {
	for _, f := range []func(*T){escaped} {
		f(New())
	}
}

func TestType(t *testing.T) { _ = hook{New()} }

func TestClean(t *testing.T) { x := New(); x.N = 1 }

func TestRecursive(t *testing.T) { recurse(3) }

func TestSetter(t *testing.T) { New().setClock(nil) }

func TestPeek(t *testing.T) { _ = New().peek() }

func recurse(n int) {
	if n > 0 {
		recurse(n - 1)
	}
}
`
	pkgWide, tests, err := whiteBoxWrites(nil, whiteBoxPackage(t, src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgWide) != 0 {
		t.Errorf("package-wide: %q", pkgWide)
	}
	var got []string
	for name := range tests {
		got = append(got, name)
	}
	slices.Sort(got)
	if want := []string{"TestFuncValue", "TestHelper", "TestSetter", "TestType"}; !slices.Equal(got, want) {
		t.Errorf("rejected %q, want %q", got, want)
	}
	if m := tests["TestHelper"]; !strings.Contains(m, "p/p_test.go:5:24: a test writing the unexported field clock") {
		t.Errorf("TestHelper's message does not name the helper's write: %s", m)
	}
	// Calling an unexported method that assigns to its receiver's fields
	// (gorilla/mux's Router.useInterface); a read-only
	// one (peek) is harmless.
	if m := tests["TestSetter"]; !strings.Contains(m, "a test calling the unexported method setClock of an observed *example.com/p.T") || !strings.Contains(m, "exported API") {
		t.Errorf("TestSetter's message: %s", m)
	}
	// The same method made an incall (the transform wraps the unexported
	// methods a test calls where it can): replay performs the call.
	if _, tests, _ := whiteBoxWrites(nil, whiteBoxPackage(t, src), map[string]bool{"T.setClock": true}); tests["TestSetter"] != "" || tests["TestHelper"] == "" {
		t.Errorf("with setClock an incall: rejected %q, want TestSetter run and TestHelper rejected", tests)
	}

	for name, extra := range map[string]string{
		"init":     "func init() { indirect(New()) }\n",
		"variable": "var _ = func() int { escaped(New()); return 0 }()\n",
		"TestMain": "func TestMain(m *testing.M) { indirect(New()); m.Run() }\n",
	} {
		pkgWide, _, err := whiteBoxWrites(nil, whiteBoxPackage(t, src+extra), nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(pkgWide) != 1 || !strings.Contains(pkgWide[0], "p/p_test.go:5:24:") {
			t.Errorf("a write reached from %s: package-wide %q, want the helper's write", name, pkgWide)
		}
	}
}

// TestWhiteBoxVariableWrites: an in-package test setting an unexported
// package-level variable that the package's code reads (chi's middleware
// tests set recovererErrorWriter; study repro whiteboxvar) is rejected with
// file:line, the variable and the fix; one only the tests use, an exported
// one (watched: WRITE_IN) and a local of the same name are not.
func TestWhiteBoxVariableWrites(t *testing.T) {
	lp := whiteBoxPackage(t, `package p

import "testing"

var onlyTests int

func TestOut(t *testing.T) {
	old := out
	defer func() { out = old }()
	out = 3
}

func TestOthers(t *testing.T) {
	onlyTests = 1
	Shared = 2
	out := 4
	out = 5
	_ = out
}
`)
	p := filepath.Join(lp.Dir, "p.go")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	src = append(src, "\nvar out = 1\n\nvar Shared = 1\n\nfunc Out() int { return out + Shared }\n"...)
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	pkgWide, tests, err := whiteBoxWrites(nil, lp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgWide) != 0 || len(tests) != 1 {
		t.Fatalf("got package-wide %q and tests %q, want TestOut only", pkgWide, tests)
	}
	for _, want := range []string{"p/p_test.go:9:17:", "unexported variable out of the observed package", "is not supported in an observed package", "leave example.com/p out of the observed set"} {
		if !strings.Contains(tests["TestOut"], want) {
			t.Errorf("message lacks %q: %s", want, tests["TestOut"])
		}
	}
}
