package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/tool/transform"
)

const (
	testObservedPH = "//app/pricing,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,"
	testHashPH     = "(source unknown)"
)

func writeStampFixture(t *testing.T, bin string) (dir string, args []string) {
	t.Helper()
	dir = t.TempDir()
	files := map[string]string{
		"pricing/a.go":       "package pricing\n",
		"pricing/b.go":       "package pricing\n\nconst B = 1\n",
		"pricing/ignored.go": "//go:build ignore\n\npackage pricing\n",
		"tax/tax.go":         "package tax\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "bin"), []byte(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	args = []string{"-in", filepath.Join(dir, "bin"), "-out", filepath.Join(dir, "out"),
		"-observed_placeholder", testObservedPH, "-hash_placeholder", testHashPH,
		"-goos", "linux", "-goarch", "amd64",
		"-src", "example.com/tax=" + filepath.Join(dir, "tax/tax.go"),
		"-src", "example.com/pricing=" + filepath.Join(dir, "pricing/b.go"),
		"-src", "example.com/pricing=" + filepath.Join(dir, "pricing/a.go"),
		"-src", "example.com/pricing=" + filepath.Join(dir, "pricing/ignored.go"),
	}
	return dir, args
}

func TestStampPatchesPlaceholders(t *testing.T) {
	bin := "\x7fELF...." + testObservedPH + "...." + testHashPH + "...."
	dir, args := writeStampFixture(t, bin)
	if err := runStamp(args); err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(bin) {
		t.Fatalf("stamped binary is %d bytes, want %d (same-length patch)", len(out), len(bin))
	}
	// Expected values, computed independently of the stamp step: the files
	// the compiler sees (ignored.go is excluded by its constraint).
	want := transform.SourceHash([]transform.PackageSources{
		{ImportPath: "example.com/pricing", Files: []transform.SourceFile{
			{Name: "a.go", Text: []byte("package pricing\n")},
			{Name: "b.go", Text: []byte("package pricing\n\nconst B = 1\n")}}},
		{ImportPath: "example.com/tax", Files: []transform.SourceFile{{Name: "tax.go", Text: []byte("package tax\n")}}},
	})
	observed := "example.com/pricing,example.com/tax"
	wantBin := strings.Replace(strings.Replace(bin, testHashPH, want, 1), testObservedPH,
		observed+strings.Repeat(",", len(testObservedPH)-len(observed)), 1)
	if string(out) != wantBin {
		t.Errorf("stamped binary\n got %q\nwant %q", out, wantBin)
	}
}

func TestStampErrors(t *testing.T) {
	for name, c := range map[string]struct {
		bin  string
		edit func([]string) []string
		want string
	}{
		"no observed placeholder": {bin: "xx" + testHashPH, want: "observed set placeholder not found"},
		"no hash placeholder":     {bin: "xx" + testObservedPH, want: "source hash placeholder not found"},
		"hash twice":              {bin: testObservedPH + testHashPH + testHashPH, want: "occurs 2 times"},
		"paths do not fit": {bin: testObservedPH + testHashPH, want: "do not fit",
			edit: func(a []string) []string {
				a[5] = "//p,,"
				return a
			}},
		"no sources": {bin: testObservedPH + testHashPH, want: "links no observed package",
			edit: func(a []string) []string { return a[:12] }},
	} {
		t.Run(name, func(t *testing.T) {
			dir, args := writeStampFixture(t, c.bin)
			if c.edit != nil {
				args = c.edit(args)
			}
			err := runStamp(args)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("runStamp: %v, want an error containing %q", err, c.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
				t.Error("a failed stamp wrote its output")
			}
		})
	}
}
