package transform_test

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/tool/transform"
)

// TestTestCalledUnexportedIsIncall: the unexported functions and methods
// that the package's in-package test files call or take as values are
// wrapped as incalls; those no test names stay plain functions, and those
// whose signature cannot be an incall stay plain too, without rejecting the
// package.
func TestTestCalledUnexportedIsIncall(t *testing.T) {
	const src = `package p

import "unsafe"

type T struct{ n int }

func (t *T) bump(d int) int { t.n += d; return t.n }
func (t *T) peek() int      { return t.n }

func parse(s string) int   { return len(s) }
func untouched(s string) int { return len(s) + 1 }
func ptr(p unsafe.Pointer) int { return 0 }
func blank[_ any]() int       { return 0 }

func Use() int { return parse("x") + untouched("y") }
`
	const test = `package p

import "testing"

type double struct{}

func (double) peek() int { return 0 }

func TestP(t *testing.T) {
	var x T
	x.bump(parse("ab"))
	f := ptr
	_ = f
	_ = blank[int]()
}
`
	const xtest = `package p_test

func untouched() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p/p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	p := check(t, fset, "example.com/p", f)
	p.Sources = [][]byte{[]byte(src)}
	for _, s := range []string{test, xtest} {
		tf, err := parser.ParseFile(fset, "p/p_test.go", s, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if tf.Name.Name == "p" { // load.Inputs keeps the package's own test files only
			p.Tests = append(p.Tests, tf)
		}
	}
	out, err := transform.Instrument(p, transform.Options{})
	if err != nil {
		t.Fatalf("a test-called unexported function that cannot be an incall rejected the package: %v", err)
	}
	code := string(out.Files[0])
	gen := string(out.Gen)
	for _, name := range []string{"bump", "parse"} {
		if !strings.Contains(code, "_capture_"+name+"(") || !strings.Contains(gen, "func "+name) && !strings.Contains(gen, ") "+name+"(") {
			t.Errorf("%s, called by the test, is not wrapped as an incall:\n%s\n%s", name, code, gen)
		}
	}
	for _, name := range []string{"untouched", "ptr", "blank", "peek"} {
		if strings.Contains(code, "_capture_"+name+"(") || strings.Contains(code, "_capture_"+name+"[") {
			t.Errorf("%s is wrapped, but no test calls it or it cannot be an incall:\n%s", name, code)
		}
	}
	if !strings.Contains(gen, `Name: "(*example.com/p.T).bump"`) || !strings.Contains(gen, `Name: "example.com/p.parse"`) {
		t.Errorf("the incall sites are not named as the exported ones are:\n%s", gen)
	}
}
