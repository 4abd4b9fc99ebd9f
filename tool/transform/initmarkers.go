package transform

import (
	"fmt"
	"go/ast"
	"go/token"
)

// initMarkers brackets the package's initialisation with BeginInit (first
// variable in declaration order) and EndInit (last init function).
func (t *transformer) initMarkers() {
	first := t.p.Files[0]
	tf := t.p.Fset.File(first.Pos())
	var at token.Pos
	for _, d := range first.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			continue
		}
		at = d.Pos()
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
			at = fd.Doc.Pos()
		}
		if gd, ok := d.(*ast.GenDecl); ok && gd.Doc != nil {
			at = gd.Doc.Pos()
		}
		break
	}
	if at.IsValid() {
		line := tf.Line(at)
		start := tf.LineStart(line)
		t.edits[0] = append(t.edits[0], edit{start: t.offset(start), end: t.offset(start),
			// The blank line keeps the directive out of the next doc comment.
			text: fmt.Sprintf("var _capture_init = _capture_begin_init()\n\n//line %s:%d\n\n", t.names[0], line-1), span: 1 << 30})
	} else {
		n := len(t.srcs[0])
		t.edits[0] = append(t.edits[0], edit{start: n, end: n, text: "\nvar _capture_init = _capture_begin_init()\n", span: 1 << 30})
	}
	// EndInit must come after every init function of the package, in
	// whatever order the build presents the files to the compiler (go build
	// sorts them by name, a Bazel rule need not, and a file may sort after
	// zz_capture_gen.go): each file that declares init functions ends with
	// one more, and so does the generated file; the last of them to run
	// ends the initialisation (pflag's EndInit ran in uint_slice.go, before
	// the generated file's init; corpus pkgvars' late.go).
	for i, f := range t.p.Files {
		if !declaresInit(f) {
			continue
		}
		n := len(t.srcs[i])
		t.edits[i] = append(t.edits[i], edit{start: n, end: n, text: "\nfunc init() { _capture_end_init() }\n", span: 1 << 30})
		t.initFiles++
	}
}

// declaresInit reports whether f declares an init function.
func declaresInit(f *ast.File) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
			return true
		}
	}
	return false
}
