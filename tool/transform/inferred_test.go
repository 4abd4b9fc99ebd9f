package transform_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/tool/internal/load"
	"github.com/rules-capture/rules_capture/tool/transform"
)

// TestInferredGenericOutcallAtGo118: observed code of a go 1.18 module
// calls external generic functions without naming their type arguments
// (golang-lru/v2's NewWithEvict: `simplelru.NewLRU(size, onEvicted)`).
// The helper used to take the function as its first argument, an
// implicitly instantiated function as an argument, which the compiler
// refuses below go1.21 ("implicitly instantiated function as argument
// requires go1.21 or later"), as a partial instantiation (F[T](x)) is.
// The helper now calls the function instantiated explicitly, and the
// instrumented package type-checks at the module's go 1.18; a file whose
// only uses of a package were in such a call keeps its import under the
// blank name.
func TestInferredGenericOutcallAtGo118(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the go command")
	}
	const pkg = "example.com/inferred118/cache"
	lp, out := instrumentCorpus(t, filepath.Join("testdata", "src", "inferred118"), pkg)
	files := map[string]string{transform.GeneratedFile: string(out.Gen)}
	for i, name := range lp.GoFiles {
		files[name] = string(out.Files[i])
	}
	for name, want := range map[string][]string{
		"cache.go":   {"_capture_out_0[K, V](k, v)", "_capture_out_1(a, b)", "_capture_out_2()(_capture_out_3(a, b))"},
		"only.go":    {"import _ \"example.com/inferred118/lib\"", "return _capture_out_4(a, b)"},
		"partial.go": {"_ \"time\"", "_ \"example.com/inferred118/lib\"", "return len(_capture_out_5(v))"},
		transform.GeneratedFile: {
			"return lib.NewPair[K, V](p0, p1)", "return lib.Max[int](p0, p1)",
			"func _capture_out_2() func(p0 string, p1 string) string", "lib.Max[string](p0, p1)",
			"return lib.Keyed[time.Duration, string](p0)",
		},
	} {
		for _, w := range want {
			if !strings.Contains(files[name], w) {
				t.Errorf("%s lacks %q:\n%s", name, w, files[name])
			}
		}
	}

	// The instrumented package type-checks at the module's language
	// version, against the export data of lib and of the probe runtime.
	dir := t.TempDir()
	written, err := load.WriteOutput(dir, lp.GoFiles, transform.GeneratedFile, out)
	if err != nil {
		t.Fatal(err)
	}
	mod, _, err := load.List(filepath.Join("testdata", "src", "inferred118"), os.Environ(), nil, pkg)
	if err != nil {
		t.Fatal(err)
	}
	rt, _, err := load.List(".", os.Environ(), nil, transform.ProbeImport)
	if err != nil {
		t.Fatal(err)
	}
	in := load.Inputs{ImportPath: pkg, Files: written, GoVersion: "1.18", ExportData: func(path string) (io.ReadCloser, error) {
		for _, all := range []map[string]*load.ListedPackage{mod, rt} {
			if p, ok := all[path]; ok && p.Export != "" {
				return os.Open(p.Export)
			}
		}
		return nil, os.ErrNotExist
	}}
	if _, err := in.Check(); err != nil {
		t.Fatalf("the instrumented package does not type-check at go1.18: %v", err)
	}
}
