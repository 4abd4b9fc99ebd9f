package transform_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/tool/transform"
)

// instrumentStd instruments one file of package example.com/p that may
// import any standard package.
func instrumentStd(t *testing.T, src string) *transform.Output {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p/p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("example.com/p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	p := &transform.Package{Fset: fset, Files: []*ast.File{f}, Types: pkg, Info: info, Sources: [][]byte{[]byte(src)}}
	out, err := transform.Instrument(p, transform.Options{Observed: []string{"example.com/p"}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// helperOf is the generated outcall helper whose site names callee.
func helperOf(t *testing.T, gen, callee string) string {
	t.Helper()
	for _, block := range strings.Split(gen, "\n// _capture_out_") {
		head, _, _ := strings.Cut(block, "\n")
		if strings.Contains(head, " calls "+callee+" (") {
			return block
		}
	}
	t.Fatalf("no outcall helper for %s in the generated file:\n%s", callee, gen)
	return ""
}

// TestOwnedAddressMarkedAtRunTime: an owned address passed to an exported
// method's interface parameter is marked, and the outcalls that may get it
// record its pointee when it is marked.
func TestOwnedAddressMarkedAtRunTime(t *testing.T) {
	out := instrumentStd(t, `package p

import (
	"encoding/binary"
	"io"
	"strings"
)

type S struct{ n uint64 }

func (s *S) WriteTo(w io.Writer) error {
	if err := binary.Write(w, binary.BigEndian, s.n); err != nil {
		return err
	}
	_, err := w.Write([]byte{'.'})
	return err
}

func (s *S) String() string {
	var b strings.Builder
	s.WriteTo(&b)
	return b.String()
}
`)
	if src := string(out.Files[0]); !strings.Contains(src, "s.WriteTo(_capture_own(&b))") {
		t.Errorf("the owned address is not marked:\n%s", src)
	}
	gen := string(out.Gen)
	for _, callee := range []string{"encoding/binary.Write", "(io.Writer).Write"} {
		if h := helperOf(t, gen, callee); !strings.Contains(h, "OutPointeeIfOwned(") || !strings.Contains(h, "SetOutPointeeIfOwned(") {
			t.Errorf("%s does not record a marked address's pointee:\n%s", callee, h)
		}
	}
}

// TestArgumentsOnlyRead: runtime.SetFinalizer does not write its object,
// which is no out-parameter however owned.
func TestArgumentsOnlyRead(t *testing.T) {
	out := instrumentStd(t, `package p

import "runtime"

type inner struct{ n int }

type Outer struct{ *inner }

func stop(o *Outer) {}

func New() *Outer {
	o := &Outer{&inner{}}
	runtime.SetFinalizer(o, stop)
	return o
}
`)
	if h := helperOf(t, string(out.Gen), "runtime.SetFinalizer"); strings.Contains(h, "Pointee(") {
		t.Errorf("SetFinalizer's object is recorded after the call:\n%s", h)
	}
}

// TestErrorsAsTargetFromOutside: errors.As on a target that came from
// outside in an interface is an outcall; on the code's own target native.
func TestErrorsAsTargetFromOutside(t *testing.T) {
	out := instrumentStd(t, `package p

import (
	"errors"
	"io/fs"
)

func As(err error, target interface{}) bool { return errors.As(err, target) }

func IsPath(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe)
}
`)
	gen := string(out.Gen)
	if n := strings.Count(gen, "\"errors.As\""); n != 1 {
		t.Errorf("%d outcall sites of errors.As, want 1 (As's, not IsPath's):\n%s", n, gen)
	}
}
