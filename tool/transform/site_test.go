package transform

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/mod/module"
)

// Sites as captures write them.
var goodSites = []string{
	"example.com/m/gen.Map[int,string]",
	"(*example.com/m/gen.Stack[map[string][]*example.com/m/ext.Point]).Push",
	"(example.com/m/gen.Box[int]).Get",
	"example.com/m/gen.Pair[[4]uint8,<-chan example.com/m/ext.Point]",
	"example.com/m/gen.Pair[chan <-chan int,chan<- chan int]",
	"example.com/m/gen.Map[main.item,int]",
	"example.com/m/gen.Map[struct { X int \"json:\\\"x,]\\\"\" },int]",
	"example.com/m/gen.Map[func(int) (string, error),int]",
	"example.com/m/gen.Map[interface { M() },int]",
	"example.com/m/gen.Map[example.com/m/gen.Box[main.local·1],int]",
	"example.com/m/gen.Map[int,struct {}]",
	"example.com/m/gen.Map[interface {},unsafe.Pointer]",
	"gopkg.in/yaml.v3.Decode[gopkg.in/yaml.v3.Node]",
	"example.com/m/v2/gen.Größe[[0]error]",
}

// Sites no capture writes: each names the part that is not of the grammar.
var hostileSites = []struct{ site, reason string }{
	{"(*example.com/m/gen.Stack[int]).Push\nos.Exit(1)", `not a Go identifier "Push\nos.Exit(1)"`},
	{"(*example.com/m/gen.Stack[os.File]).Push[_i0.File]()\n\t_i0.WriteFile(\"/tmp/marker\", nil, 420)\n\t_i1.CaptureInstance_Stack_Push", "not a Go identifier"},
	{"example.com/m/gen.Map[int]()\n\tos.Exit(1)\n\t_ = x[int]", "unexpected text after the type arguments"},
	{"example.com/m/gen.Map[int]\nfunc init() { panic(1) }", "unexpected text after the type arguments"},
	{"example.com/m/gen.Map[int]()}; func init() { panic(1) }; func _() {_ = []int{1", "unexpected text"},
	{"example.com/m/gen.Map[\"os\".T]", "want a type name"},
	{"example.com/m/gen.Map[[1e3]int]", "not an array length"},
	{"example.com/m/gen.Map[[0x10]int]", "not an array length"},
	{"example.com/m/gen.Map[[010]int]", "not an array length"},
	{"example.com/m/gen.Map[[-1]int]", "not an array length"},
	{"example.com/m/gen.Map[[99999999999]int]", "not an array length"},
	{"example.com/m/gen.Map[int", "want \",\" or \"]\""},
	{"example.com/m/gen.Map[int,]", "want a type name"},
	{"example.com/m/gen.Map[chan<-int]", "not a Go identifier \"chan\""},
	{"example.com/m/gen.Map[func]", "not a Go identifier \"func\""},
	{"example.com/m/gen.func[int]", "not a Go identifier \"func\""},
	{"(*example.com/m/gen.Stack[int]).", "not a Go identifier \"\""},
	{"(*example.com/m/gen.Stack[int])", "want \").\""},
	{"Map[int]", "no package path"},
	{".Map[int]", "not a valid import path \"\""},
	{"example.com/../gen.Map[int]", "not a valid import path"},
	{"example.com/m/gen.Map[-example.com/x.T]", "not a valid import path"},
	{"example.com/m/gen.Map[struct { X int\n }]", "non-printing character"},
	{"example.com/m/gen.Map[example.com/m/gen.Box[int\u2028]]", "non-printing character"},
	{"example.com/m/gen.Map[struct { X int \"]", "unterminated string"},
	{"example.com/m/gen.Map[func(int]", "unbalanced brackets"},
	{"example.com/m/gen.Map[" + strings.Repeat("*", 100) + "int]", "nested more than"},
	{"example.com/m/gen.Map[int\xff]", "not valid UTF-8"},
	{"example.com/m/gen.Map[example.com/m.T·5c0e]", "want 16 hex digits"},
	{"example.com/m/gen.Map[example.com/m.T·5C0E5C0E5C0E5C0E]", "want 16 hex digits"},
	{"example.com/m/gen.Map[example.com/m.T·5c0e5c0e5c0e5c0e5]", "want 16 hex digits"},
	{"example.com/m/gen.Map[int·5c0e5c0e5c0e5c0e]", "a predeclared type int with a fingerprint"},
}

func TestParseInstanceSite(t *testing.T) {
	for _, site := range goodSites {
		s, err := ParseInstanceSite(site)
		if err != nil {
			t.Errorf("%q: %v", site, err)
			continue
		}
		if got := s.String(); got != site {
			t.Errorf("%q parses and spells as %q", site, got)
		}
	}
	for _, h := range hostileSites {
		_, err := ParseInstanceSite(h.site)
		var se *SiteError
		if !errors.As(err, &se) || se.Site != h.site || !strings.Contains(err.Error(), h.reason) || !strings.Contains(err.Error(), "may be corrupt or hostile") {
			t.Errorf("%q: error %v; want a SiteError saying %q", h.site, err, h.reason)
		}
	}
	s, err := ParseInstanceSite("(*example.com/m/gen.Stack[map[string][]*example.com/m/ext.Point]).Push")
	want := &InstanceSite{Pkg: "example.com/m/gen", Recv: "Stack", PtrRecv: true, Name: "Push", Args: []*TypeArg{{
		Kind: KindMap, Key: &TypeArg{Kind: KindNamed, Name: "string"},
		Elem: &TypeArg{Kind: KindSlice, Elem: &TypeArg{Kind: KindPointer, Elem: &TypeArg{Kind: KindNamed, Pkg: "example.com/m/ext", Name: "Point"}}},
	}}}
	if err != nil || !reflect.DeepEqual(s, want) {
		t.Errorf("got %+v, %v", s, err)
	}
}

// TestFingerprintedTypeArgument: a type the capture's binary holds under a
// name that other types of it share (one declared inside a test function,
// go-toml's `type Config struct` in TestIssue678) is named with its
// fingerprint (value.TypeName), and so is a type argument of a generic
// incall. Such a site is of the grammar: the harness is built, and it
// skips that instantiation (no source outside the function can name its
// type argument), saying so, while it instantiates the log's others.
func TestFingerprintedTypeArgument(t *testing.T) {
	const site = "github.com/pelletier/go-toml/v2/internal/assert.Equal[*github.com/pelletier/go-toml/v2_test.Config·b5f5182638df0b25]"
	s, err := ParseInstanceSite(site)
	if err != nil {
		t.Fatal(err)
	}
	want := &InstanceSite{Pkg: "github.com/pelletier/go-toml/v2/internal/assert", Name: "Equal", Args: []*TypeArg{{
		Kind: KindPointer, Elem: &TypeArg{Kind: KindNamed, Pkg: "github.com/pelletier/go-toml/v2_test", Name: "Config", Fingerprint: "b5f5182638df0b25"},
	}}}
	if !reflect.DeepEqual(s, want) || s.String() != site {
		t.Errorf("got %+v spelled %q", s, s.String())
	}
	if err := CheckIncallSite(site); err != nil {
		t.Errorf("CheckIncallSite: %v", err)
	}
	other := "github.com/pelletier/go-toml/v2/internal/assert.Equal[string]"
	src, skipped, err := HarnessInstances("main", "github.com/pelletier/go-toml/v2/zz", []string{"github.com/pelletier/go-toml/v2/internal/assert"}, []string{site, other}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || !strings.HasPrefix(skipped[0], site+": ") || !strings.Contains(skipped[0], "declared inside a function") {
		t.Errorf("skipped %q; want %s skipped as a function's type", skipped, site)
	}
	if !strings.Contains(string(src), "CaptureInstance_Equal[string]") || strings.Contains(string(src), "Config") {
		t.Errorf("harness file:\n%s\nwant Equal[string] alone", src)
	}
}

// TestHarnessInstancesRefusesHostileSites: one site outside the grammar and
// there is no harness file at all, whatever the other sites.
func TestHarnessInstancesRefusesHostileSites(t *testing.T) {
	for _, h := range hostileSites {
		src, _, err := HarnessInstances("main", "example.com/m/zz", []string{"example.com/m/gen"}, []string{"example.com/m/gen.Map[int,string]", h.site}, nil)
		var se *SiteError
		if src != nil || !errors.As(err, &se) {
			t.Errorf("%q: file %q, error %v; want no file and a SiteError", h.site, src, err)
		}
	}
}

// TestTypesBuild: with type information, the harness names only types of
// packages the build contains, and only instantiations that compile.
func TestTypesBuild(t *testing.T) {
	fset := token.NewFileSet()
	pkgs := map[string]*types.Package{}
	check := func(path, src string) {
		f, err := parser.ParseFile(fset, path+".go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		conf := types.Config{Importer: importerFunc(func(p string) (*types.Package, error) { return pkgs[p], nil })}
		p, err := conf.Check(path, fset, []*ast.File{f}, nil)
		if err != nil {
			t.Fatal(err)
		}
		pkgs[path] = p
	}
	check("example.com/m/ext", "package ext\n\ntype Point struct{ X int }\n\ntype Box[T any] struct{ V T }\n\nfunc Fn() {}\n")
	check("example.com/m/gen", `package gen

import "example.com/m/ext"

type Number interface{ ~int | ~float64 }

func Sum[T Number](xs []T) (t T) { return }

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

var _ ext.Point
`)
	build := TypesBuild(importerFunc(func(p string) (*types.Package, error) {
		if pkg, ok := pkgs[p]; ok {
			return pkg, nil
		}
		return nil, errors.New("not in the build")
	}))
	for _, c := range []struct{ site, skip string }{
		{"example.com/m/gen.Sum[int]", ""},
		{"(*example.com/m/gen.Stack[map[string]*example.com/m/ext.Point]).Push", ""},
		{"example.com/m/gen.Sum[string]", "cannot instantiate Sum"},
		{"example.com/m/gen.Sum[example.com/evil.T]", "does not contain example.com/evil"},
		{"example.com/m/gen.Sum[example.com/m/ext.Nope]", "declares no type Nope"},
		{"example.com/m/gen.Sum[example.com/m/ext.Fn]", "declares no type Fn"},
		{"(*example.com/m/gen.Stack[example.com/m/ext.Box]).Push", "is generic"},
		{"(*example.com/m/gen.Stack[int]).Pop", "no method Pop"},
		{"example.com/m/gen.Nope[int]", "declares no generic function Nope"},
		{"(*example.com/m/gen.Sum[int]).Push", "declares no generic type Sum"},
		{"(*example.com/m/gen.Stack[map[[]int]int]).Push", "not comparable"},
		{"(*example.com/m/gen.Stack[[2147483647][2147483647]int]).Push", "too large"},
	} {
		src, skipped, err := HarnessInstances("main", "example.com/m/zz", []string{"example.com/m/gen"}, []string{c.site}, build)
		switch {
		case err != nil:
			t.Errorf("%s: %v", c.site, err)
		case c.skip == "" && (src == nil || len(skipped) > 0):
			t.Errorf("%s: skipped %q", c.site, skipped)
		case c.skip != "" && (src != nil || len(skipped) != 1 || !strings.Contains(skipped[0], c.skip)):
			t.Errorf("%s: file %s, skipped %q; want it skipped saying %q", c.site, src, skipped, c.skip)
		}
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// FuzzParseInstanceSite: a site either is refused (a *SiteError) or spells
// exactly what it parses to, and the harness file made from it is Go that
// imports only the packages the site names, by valid import paths, and
// says in Go the same site: the instantiation of the hook of the parsed
// function with the parsed type arguments.
func FuzzParseInstanceSite(f *testing.F) {
	for _, s := range goodSites {
		f.Add(s)
	}
	for _, h := range hostileSites {
		f.Add(h.site)
	}
	f.Fuzz(func(t *testing.T, site string) {
		s, err := ParseInstanceSite(site)
		if err != nil {
			var se *SiteError
			if !errors.As(err, &se) {
				t.Fatalf("%q: %v is not a SiteError", site, err)
			}
			if src, _, err := HarnessInstances("main", "example.com/h/zz", []string{"example.com/m/gen"}, []string{site}, nil); IsInstanceSite(site) && (src != nil || err == nil) {
				t.Fatalf("%q: refused by the parser, yet HarnessInstances made %q (%v)", site, src, err)
			}
			return
		}
		if got := s.String(); got != site {
			t.Fatalf("%q parses and spells as %q", site, got)
		}
		src, skipped, err := HarnessInstances("main", "example.com/h/zz", []string{s.Pkg}, []string{site}, nil)
		if err != nil {
			t.Fatalf("%q: %v", site, err)
		}
		if src == nil {
			if len(skipped) != 1 {
				t.Fatalf("%q: no file, skipped %q", site, skipped)
			}
			return
		}
		file, err := parser.ParseFile(token.NewFileSet(), "instances.go", src, 0)
		if err != nil {
			t.Fatalf("%q: the file is not Go: %v\n%s", site, err, src)
		}
		named := map[string]bool{s.Pkg: true}
		for _, a := range s.Args {
			a.packages(named)
		}
		paths := map[string]string{} // alias -> import path
		for _, imp := range file.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil || module.CheckImportPath(p) != nil || !named[p] || imp.Name == nil {
				t.Fatalf("%q: import %s is not one the site names\n%s", site, imp.Path.Value, src)
			}
			paths[imp.Name.Name] = p
		}
		if len(file.Decls) != 2 {
			t.Fatalf("%q: %d declarations, want the imports and init\n%s", site, len(file.Decls), src)
		}
		fn, ok := file.Decls[1].(*ast.FuncDecl)
		if !ok || fn.Name.Name != "init" || fn.Recv != nil || len(fn.Body.List) != 1 {
			t.Fatalf("%q: want func init with one statement\n%s", site, src)
		}
		call, ok := fn.Body.List[0].(*ast.ExprStmt).X.(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			t.Fatalf("%q: want a call without arguments\n%s", site, src)
		}
		var fun ast.Expr
		var idx []ast.Expr
		switch x := call.Fun.(type) {
		case *ast.IndexExpr:
			fun, idx = x.X, []ast.Expr{x.Index}
		case *ast.IndexListExpr:
			fun, idx = x.X, x.Indices
		default:
			t.Fatalf("%q: call of %T\n%s", site, call.Fun, src)
		}
		sel, ok := fun.(*ast.SelectorExpr)
		if !ok || paths[sel.X.(*ast.Ident).Name] != s.Pkg || sel.Sel.Name != instanceHook(s.Recv, s.Name) {
			t.Fatalf("%q: calls %s\n%s", site, fun, src)
		}
		if len(idx) != len(s.Args) {
			t.Fatalf("%q: %d type arguments in Go\n%s", site, len(idx), src)
		}
		for i, e := range idx {
			got, want := fromGo(e, paths), goForm(s.Args[i])
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q: type argument %d is %s in Go, want %s\n%s", site, i, got, want, src)
			}
		}
	})
}

// fromGo parses back a type expression of the harness file.
func fromGo(e ast.Expr, paths map[string]string) *TypeArg {
	switch x := e.(type) {
	case *ast.Ident:
		return &TypeArg{Kind: KindNamed, Name: x.Name}
	case *ast.SelectorExpr:
		return &TypeArg{Kind: KindNamed, Pkg: paths[x.X.(*ast.Ident).Name], Name: x.Sel.Name}
	case *ast.StarExpr:
		return &TypeArg{Kind: KindPointer, Elem: fromGo(x.X, paths)}
	case *ast.ParenExpr:
		return fromGo(x.X, paths)
	case *ast.ArrayType:
		if x.Len == nil {
			return &TypeArg{Kind: KindSlice, Elem: fromGo(x.Elt, paths)}
		}
		n, _ := strconv.ParseInt(x.Len.(*ast.BasicLit).Value, 10, 64)
		return &TypeArg{Kind: KindArray, Len: n, Elem: fromGo(x.Elt, paths)}
	case *ast.MapType:
		return &TypeArg{Kind: KindMap, Key: fromGo(x.Key, paths), Elem: fromGo(x.Value, paths)}
	case *ast.ChanType:
		return &TypeArg{Kind: KindChan, Dir: x.Dir, Elem: fromGo(x.Value, paths)}
	case *ast.StructType:
		if len(x.Fields.List) == 0 {
			return &TypeArg{Kind: KindEmptyStruct}
		}
	}
	return &TypeArg{Kind: KindLiteral, Text: "unexpected Go"}
}

// goForm is t as the harness writes it: the empty interface as any.
func goForm(t *TypeArg) *TypeArg {
	if t == nil {
		return nil
	}
	if t.Kind == KindEmptyInterface {
		return &TypeArg{Kind: KindNamed, Name: "any"}
	}
	c := *t
	c.Key, c.Elem = goForm(t.Key), goForm(t.Elem)
	return &c
}
