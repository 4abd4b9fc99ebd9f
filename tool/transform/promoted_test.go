package transform_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/tool/transform"
)

// Fields and methods of an external type promoted through an unexported
// type of its package that it embeds (goldmark's ast.Link embeds
// ast.baseLink): the instrumented code must not name the unexported field
// (it did not compile: "n.baseLink undefined"), and must still call and
// read what the original selected. Golden files as TestGolden's.
func TestPromotedThroughUnexportedEmbedding(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the go command")
	}
	lp, out := instrumentCorpus(t, filepath.Join("..", "..", "testdata", "corpus", "promoted"), "example.com/promoted/render")
	src := string(out.Files[0])
	gen := string(out.Gen)
	if strings.Contains(src, "baseLink") || strings.Contains(src, "caption") {
		t.Errorf("the instrumented source names an unexported field of another package:\n%s", src)
	}
	for _, want := range []string{
		"(&n.BaseInline.BaseNode)", // n.Attributes(): the named fields of the path
		"(n)",                      // n.Kind(): a method of baseLink itself, from the *ast.Link
		"(f)",                      // f.Attributes(): Figure's BaseInline is hidden by caption's
		"(&w.Link.BaseInline.BaseNode)",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the instrumented source lacks %s:\n%s", want, src)
		}
	}
	for _, want := range []string{
		"(_r *ast.Link) string {",                      // Kind, on the *ast.Link
		"(*example.com/promoted/ast.Link).Destination", // promoted field read: READ_OUT
		"(*example.com/promoted/ast.Figure).Destination",
	} {
		if !strings.Contains(gen, want) {
			t.Errorf("the generated file lacks %s", want)
		}
	}
	files := map[string][]byte{transform.GeneratedFile: out.Gen}
	for i, name := range lp.GoFiles {
		files[name] = out.Files[i]
	}
	for name, got := range files {
		golden := filepath.Join("testdata", "golden", "promoted", name+".golden")
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s (run go test -update and review the diff)", name, golden)
		}
	}
}
