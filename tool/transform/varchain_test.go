package transform_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// A method call on another package's variable, pkg.Var.M(x), in a package
// variable's initialiser (goldmark's extension: var TableAttributeFilter =
// html.GlobalAttributeFilter.ExtendString(...)) and in a function: the
// READ_OUT helper's closing ")" and the outcall's rewrite of ".M(" start at
// one offset; the transform failed with "overlapping edits (internal
// error)".
func TestMethodCallOnOtherPackagesVariable(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the go command")
	}
	_, out := instrumentCorpus(t, filepath.Join("..", "..", "testdata", "corpus", "varchain"), "example.com/varchain/ext")
	src := string(out.Files[0])
	for _, want := range []string{
		"var TableAttributeFilter = _capture_out_0(_capture_read_1(&html.GlobalAttributeFilter), `align,border`)",
		"return _capture_out_3(_capture_read_4(&html.GlobalAttributeFilter), []byte(name))",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the instrumented source lacks\n\t%s\n%s", want, src)
		}
	}
}
