package frontend

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rules-capture/rules_capture/tool/internal/load"
)

// declaredWhere finds the types a replay build cannot link in the sources
// of an observed package: inside functions (of any file) and at package
// level in its _test.go files, by the names a log gives them.
func TestDeclaredWhere(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a.go":      "package a\n\ntype Own struct{}\n\nfunc f() {\n\ttype local int\n\t_ = local(0)\n}\n",
		"a_test.go": "package a\n\ntype fixture struct{}\n\nfunc g() {\n\ttype local string\n}\n",
		"x_test.go": "package a_test\n\ntype Ext struct{}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs := []*load.ListedPackage{{ImportPath: "example.com/a", Name: "a", Dir: dir,
		GoFiles: []string{"a.go"}, TestGoFiles: []string{"a_test.go"}, XTestGoFiles: []string{"x_test.go"}}}
	got := declaredWhere(pkgs, nil)
	want := map[string]string{
		"example.com/a.local":    "inside a function (a.go:6, a_test.go:6)",
		"a.local":                "inside a function (a.go:6, a_test.go:6)",
		"example.com/a.fixture":  "in a _test.go file (a_test.go:3), which replay does not link",
		"a.fixture":              "in a _test.go file (a_test.go:3), which replay does not link",
		"example.com/a_test.Ext": "in a _test.go file (x_test.go:3), which replay does not link",
		"a_test.Ext":             "in a _test.go file (x_test.go:3), which replay does not link",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("declaredWhere = %q\nwant %q", got, want)
	}
	// With the package's test files linked (linkTestFiles), a type of
	// theirs that replay still cannot rebuild is one of several of its
	// name; the external test package stays unlinked.
	got = declaredWhere(pkgs, map[string]bool{"example.com/a": true})
	linked := ", which the replay build links; other types of the binary have its name, and reflection tells them apart"
	want = map[string]string{
		"example.com/a.local":    "inside a function (a.go:6, a_test.go:6)" + linked,
		"a.local":                "inside a function (a.go:6, a_test.go:6)" + linked,
		"example.com/a.fixture":  "in a _test.go file (a_test.go:3)" + linked,
		"a.fixture":              "in a _test.go file (a_test.go:3)" + linked,
		"example.com/a_test.Ext": "in a _test.go file (x_test.go:3), which replay does not link",
		"a_test.Ext":             "in a _test.go file (x_test.go:3), which replay does not link",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("declaredWhere with a's tests linked = %q\nwant %q", got, want)
	}
}
