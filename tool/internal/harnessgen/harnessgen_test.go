package harnessgen

import (
	"bytes"
	"flag"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden compares the generated harness sources with golden files
// (go test -update rewrites them): each must be gofmt-clean as written.
func TestGolden(t *testing.T) {
	sites := []string{
		"example.com/shop/pricing.Map[int,string]",
		"(*example.com/shop/pricing.Stack[example.com/shop/types.ID]).Push",
		"example.com/shop/pricing.Plain",
		"example.com/shop/pricing.Map[main.money,int]",
	}
	observed := []string{"example.com/shop/tax", "example.com/shop/pricing", "example.com/shop/tax"}
	for _, c := range []struct {
		name  string
		h     Harness
		sites []string
	}{
		{"replay_main", Harness{Package: "main", ImportPath: "example.com/shop/zz_capture_replay", Observed: observed}, sites},
		{"test_sharded", Harness{Package: TestPackage, ImportPath: "example.com/shop/zz_capture_replay", Observed: observed, Test: &Test{
			Target: "//shop:pricing_replay_test",
			Check:  "returns",
			Logs:   []string{"_main/shop/testdata/capture/a.arrow", "_main/shop/testdata/capture/b.arrow", "_main/shop/testdata/capture/c.arrow"},
			Shards: 3,
		}}, sites},
		{"test_nologs", Harness{Package: TestPackage, ImportPath: "example.com/shop/zz_capture_replay", Observed: []string{"example.com/shop/pricing"}, Test: &Test{
			Target: "@@//shop:pricing_replay_test",
			Check:  "strict",
		}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Generate(c.h, c.sites, nil)
			if err != nil {
				t.Fatal(err)
			}
			for name, got := range map[string][]byte{"main.go": f.Main, "instances.go": f.Instances} {
				if formatted, err := format.Source(got); err != nil || !bytes.Equal(formatted, got) {
					t.Errorf("%s is not gofmt-clean (%v):\n%s", name, err, got)
				}
				golden := filepath.Join("testdata", c.name+"_"+name+".golden")
				if *update {
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", name, golden, got)
				}
			}
			if c.sites != nil && (len(f.Skipped) != 1 || !strings.Contains(f.Skipped[0], "main.money")) {
				t.Errorf("skipped %q, want the instantiation with a type of package main", f.Skipped)
			}
		})
	}
}

// TestCaptureTestMainGolden: the TestMain of `capture test`.
func TestCaptureTestMainGolden(t *testing.T) {
	got, err := CaptureTestMain("calc_test")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "capture_test_main.go.golden")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want, err := os.ReadFile(golden); err != nil || !bytes.Equal(got, want) {
		t.Errorf("differs from %s (%v; go test -update rewrites it):\n%s", golden, err, got)
	}
	if _, err := CaptureTestMain("a b"); err == nil {
		t.Error("a package name that is no identifier was taken")
	}
}

// TestGenerateRefuses: a bad package name or a hostile site writes no file.
func TestGenerateRefuses(t *testing.T) {
	for _, c := range []struct {
		h     Harness
		sites []string
		want  string
	}{
		{Harness{Package: "x-y", Observed: []string{"m/p"}, Test: &Test{}}, nil, "not a Go identifier"},
		{Harness{Package: TestPackage, Observed: []string{"m/p"}}, nil, "package main"},
		{Harness{Package: "main", Observed: []string{"m/p"}}, []string{"(*m/p.Stack[int]).Push\nos.Exit(1)"}, "corrupt or hostile"},
	} {
		if f, err := Generate(c.h, c.sites, nil); f != nil || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, %v; want no files and an error saying %q", c.h, f, err, c.want)
		}
	}
}

func TestTestFuncNames(t *testing.T) {
	for shards, want := range map[int]string{0: "TestReplay", 1: "TestReplay", 2: "TestReplayShard0 TestReplayShard1"} {
		if got := strings.Join(testFuncNames(shards), " "); got != want {
			t.Errorf("%d shards: %s, want %s", shards, got, want)
		}
	}
}

// TestTestMainCompiles: the generated test main type-checks against
// rules/private/harness as it is (its Config, Main and Run), so a change of
// that API fails here and not only in the Bazel build.
func TestTestMainCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the harness package from source")
	}
	f, err := Generate(Harness{Package: TestPackage, Observed: []string{"example.com/shop/pricing"}, Test: &Test{
		Target: "//shop:t", Check: "strict", Logs: []string{"_main/shop/a.arrow"}, Shards: 2,
	}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, src := range [][]byte{f.Main, f.Instances} {
		file, err := parser.ParseFile(fset, "", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
	}
	source := importer.ForCompiler(fset, "source", nil)
	conf := types.Config{Importer: importerFunc(func(path string) (*types.Package, error) {
		if path == "example.com/shop/pricing" {
			p := types.NewPackage(path, "pricing")
			p.MarkComplete()
			return p, nil
		}
		return source.Import(path)
	})}
	if _, err := conf.Check(TestPackage, fset, files, nil); err != nil {
		t.Errorf("the generated test main does not compile against %s: %v", HarnessImport, err)
	}
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
