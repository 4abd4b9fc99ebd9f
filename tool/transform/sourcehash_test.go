package transform_test

import (
	"testing"

	"github.com/rules-capture/rules_capture/tool/transform"
)

func TestSourceHash(t *testing.T) {
	a := transform.PackageSources{ImportPath: "example.com/a", Files: []transform.SourceFile{{Name: "a.go", Text: []byte("package a\n")}, {Name: "b.go", Text: []byte("package a\n// b\n")}}}
	b := transform.PackageSources{ImportPath: "example.com/b", Files: []transform.SourceFile{{Name: "b.go", Text: []byte("package b\n")}}}
	base := transform.SourceHash([]transform.PackageSources{a, b})
	if len(base) != 16 {
		t.Fatalf("transform.SourceHash = %q, want 16 hex digits", base)
	}
	// Neither the order of packages nor of files matters.
	swapped := transform.PackageSources{ImportPath: a.ImportPath, Files: []transform.SourceFile{a.Files[1], a.Files[0]}}
	if got := transform.SourceHash([]transform.PackageSources{b, swapped}); got != base {
		t.Errorf("reordered packages and files: %s, want %s", got, base)
	}
	// Any change of content, file name, import path or file boundary does.
	for name, pkgs := range map[string][]transform.PackageSources{
		"content":   {{ImportPath: a.ImportPath, Files: []transform.SourceFile{{Name: "a.go", Text: []byte("package a\n\n")}, a.Files[1]}}, b},
		"file name": {{ImportPath: a.ImportPath, Files: []transform.SourceFile{{Name: "c.go", Text: a.Files[0].Text}, a.Files[1]}}, b},
		"path":      {{ImportPath: "example.com/c", Files: a.Files}, b},
		"boundary":  {{ImportPath: a.ImportPath, Files: []transform.SourceFile{{Name: "a.go", Text: []byte("package a\npackage a\n// b\n")}}}, b},
		"package":   {a},
	} {
		if got := transform.SourceHash(pkgs); got == base {
			t.Errorf("%s changed, hash did not: %s", name, got)
		}
	}
}
