package transform

import "testing"

func TestSourceHash(t *testing.T) {
	a := PackageSources{ImportPath: "example.com/a", Files: []SourceFile{{"a.go", []byte("package a\n")}, {"b.go", []byte("package a\n// b\n")}}}
	b := PackageSources{ImportPath: "example.com/b", Files: []SourceFile{{"b.go", []byte("package b\n")}}}
	base := SourceHash([]PackageSources{a, b})
	if len(base) != 16 {
		t.Fatalf("SourceHash = %q, want 16 hex digits", base)
	}
	// Neither the order of packages nor of files matters.
	swapped := PackageSources{ImportPath: a.ImportPath, Files: []SourceFile{a.Files[1], a.Files[0]}}
	if got := SourceHash([]PackageSources{b, swapped}); got != base {
		t.Errorf("reordered packages and files: %s, want %s", got, base)
	}
	// Any change of content, file name, import path or file boundary does.
	for name, pkgs := range map[string][]PackageSources{
		"content":   {{a.ImportPath, []SourceFile{{"a.go", []byte("package a\n\n")}, a.Files[1]}}, b},
		"file name": {{a.ImportPath, []SourceFile{{"c.go", a.Files[0].Text}, a.Files[1]}}, b},
		"path":      {{"example.com/c", a.Files}, b},
		"boundary":  {{a.ImportPath, []SourceFile{{"a.go", []byte("package a\npackage a\n// b\n")}}}, b},
		"package":   {a},
	} {
		if got := SourceHash(pkgs); got == base {
			t.Errorf("%s changed, hash did not: %s", name, got)
		}
	}
}
