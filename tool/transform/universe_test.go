package transform_test

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/tool/transform"
)

// A package that declares nil is rejected: the instrumented code compares
// with the predeclared nil and has no other spelling of it.
func TestDeclaredNilRejected(t *testing.T) {
	src := `package p

func F(x *int) bool {
	nil := x
	return nil != x
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := check(t, fset, "example.com/p", f)
	p.Sources = [][]byte{[]byte(src)}
	p.DisplayNames = []string{"p/p.go"}
	_, err = transform.Instrument(p, transform.Options{})
	if err == nil || !strings.Contains(err.Error(), "p.go:4:2: a declaration named nil is not supported") {
		t.Fatalf("Instrument: %v, want the declaration of nil rejected", err)
	}
}
