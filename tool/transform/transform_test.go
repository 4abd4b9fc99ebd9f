package transform_test

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

	"github.com/rules-capture/rules_capture/tool/internal/load"
	"github.com/rules-capture/rules_capture/tool/transform"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// instrumentCorpus instruments the observed package of a corpus program
// (type-checked against export data, as a build action would).
func instrumentCorpus(t *testing.T, module, pkg string) (*load.ListedPackage, *transform.Output) {
	t.Helper()
	all, _, err := load.List(module, os.Environ(), nil, pkg)
	if err != nil {
		t.Fatal(err)
	}
	lp := all[pkg]
	p, err := load.Check(lp, all)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range lp.GoFiles {
		p.DisplayNames = append(p.DisplayNames, filepath.Base(lp.Dir)+"/"+f)
	}
	out, err := transform.Instrument(p, transform.Options{Observed: []string{pkg}})
	if err != nil {
		t.Fatal(err)
	}
	return lp, out
}

// TestGolden compares the instrumented source of corpus packages with
// golden files (go test -update rewrites them).
func TestGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the go command")
	}
	corpus := filepath.Join("..", "..", "testdata", "corpus")
	for _, c := range []struct{ dir, pkg, golden string }{
		{"basic", "example.com/basic/calc", ""},
		{"errs", "example.com/errs/store", ""},
		{"shapes", "example.com/shapes/geom", ""},
		{"panics", "example.com/panics/guard", ""},
		{"outparams", "example.com/outparams/decode", ""},
		{"writeout", "example.com/writeout/tune", ""},
		{"generics", "example.com/generics/gen", ""},
		{"waitgroup", "example.com/waitgroup/fan", ""},
		{"typeident", "example.com/typeident/classify", ""},
		{"channels", "example.com/channels/pipe", ""},
		{"context", "example.com/context/svc", ""},
		{"maporder", "example.com/maporder/tally", ""},
		{"maporder118", "example.com/maporder118/tally", ""}, // go 1.18: no range over functions
		{"wggo", "example.com/wggo/pool", ""},
		{"fields", "example.com/fields/opts", ""},
		{"lockpool", "example.com/lockpool/orders", ""},
		{"reflectout", "example.com/reflectout/codec", ""},
		{"testingtb", "example.com/testingtb/assert", ""}, // a stand-in for testing.TB
		{"handlerfunc", "example.com/handlerfunc/mw", ""}, // closures returned by callbacks, a map field indexed
		{"unexported", "example.com/unexported/cli", ""},  // unexported functions its in-package tests call
		{"addrdata", "example.com/addrdata/ptrs", ""},     // addresses turned into integers, and back into pointers
		// Packages whose declarations hide predeclared names.
		{"shadowed", "example.com/shadowed/bits", "shadowed-bits"},
		{"shadowed", "example.com/shadowed/words", "shadowed-words"},
	} {
		if c.golden == "" {
			c.golden = c.dir
		}
		t.Run(c.golden, func(t *testing.T) {
			lp, out := instrumentCorpus(t, filepath.Join(corpus, c.dir), c.pkg)
			files := map[string][]byte{transform.GeneratedFile: out.Gen}
			for i, name := range lp.GoFiles {
				files[name] = out.Files[i]
			}
			for name, got := range files {
				if fmt, err := format.Source(got); err != nil || !bytes.Equal(fmt, got) {
					t.Errorf("%s is not gofmt-clean (%v)", name, err)
				}
				golden := filepath.Join("testdata", "golden", c.golden, name+".golden")
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
		})
	}
}

// TestBenchSubjectUpToDate keeps the instrumented benchmark subject in
// runtime/probe/internal/calcbench equal to the transform's output.
func TestBenchSubjectUpToDate(t *testing.T) {
	fset := token.NewFileSet()
	path := filepath.Join("testdata", "src", "calcbench", "calc.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	p := check(t, fset, "github.com/rules-capture/rules_capture/runtime/probe/internal/calcbench", f)
	p.Sources = [][]byte{src}
	p.DisplayNames = []string{"calcbench/calc.go"}
	out, err := transform.Instrument(p, transform.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "runtime", "probe", "internal", "calcbench")
	for name, got := range map[string][]byte{"calc.go": out.Files[0], transform.GeneratedFile: out.Gen} {
		target := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(target, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(target)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is not the transform's output (run go test -update): %v", target, err)
		}
	}
}

// instrumentSource instruments one file of package example.com/p, given its
// name (p/....go) and source.
func instrumentSource(t *testing.T, name, src string) (*transform.Output, error) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	p := check(t, fset, "example.com/p", f)
	p.Sources = [][]byte{[]byte(src)}
	return transform.Instrument(p, transform.Options{})
}

func check(t *testing.T, fset *token.FileSet, path string, files ...*ast.File) *transform.Package {
	t.Helper()
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{FakeImportC: true, Importer: unsafeOnly{fset}}
	pkg, err := conf.Check(path, fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	return &transform.Package{Fset: fset, Files: files, Types: pkg, Info: info}
}

// unsafeOnly imports unsafe, and the few standard-library packages the
// reject cases use from source.
type unsafeOnly struct{ fset *token.FileSet }

func (u unsafeOnly) Import(path string) (*types.Package, error) {
	switch path {
	case "unsafe":
		return types.Unsafe, nil
	case "os", "io", "strings", "reflect", "sync", "runtime", "encoding/json", "image", "go/ast", "fmt":
		return importer.ForCompiler(u.fset, "source", nil).Import(path)
	}
	return nil, os.ErrNotExist
}

// TestRejects: constructs the transform cannot instrument are reported with
// the construct, the file:line and what to do.
func TestRejects(t *testing.T) {
	cases := []struct {
		name, src, construct string
		line                 int
	}{
		{"cgo", "package p\n\nimport \"C\"\n\nfunc F() {}\n", "cgo", 3},
		{"linkname", "package p\n\nimport _ \"unsafe\"\n\n//go:linkname f runtime.f\nfunc f()\n\nfunc F() { f() }\n", "//go:linkname", 5},
		{"go statement of a function value", "package p\n\nfunc F(f func()) {\n\tgo f()\n}\n", "go statement starting external code or a function value", 4},
		{"WaitGroup.Go of a function value", "package p\n\nimport \"sync\"\n\nfunc F(f func()) {\n\tvar wg sync.WaitGroup\n\twg.Go(f)\n\twg.Wait()\n}\n", "(*sync.WaitGroup).Go with external code or a function value", 7},
		{"WaitGroup.Go of external code", "package p\n\nimport (\n\t\"runtime\"\n\t\"sync\"\n)\n\nfunc F(wg *sync.WaitGroup) {\n\twg.Go(runtime.GC)\n}\n", "(*sync.WaitGroup).Go with external code or a function value", 9},
		{"unsafe.Pointer", "package p\n\nimport \"unsafe\"\n\nfunc F(p unsafe.Pointer) {}\n", "unsafe.Pointer", 5},
		{"external variable in a tuple assignment", "package p\n\nimport \"os\"\n\nfunc F() {\n\tvar a int\n\ta, os.Args = 1, nil\n\t_ = a\n}\n", "writing os.Args in a tuple assignment", 7},
		{"blank type parameter", "package p\n\ntype L[T any] struct{ x []T }\n\nfunc (l *L[_]) Len() int { return len(l.x) }\n", "blank type parameter", 5},
		{"replay hook clash", "package p\n\nfunc F[T any](x T) T { return x }\n\nfunc CaptureInstance_F() {}\n", "replay hook CaptureInstance_F", 3},
		{"go statement with a type parameter", "package p\n\nfunc g[T any](x T) {}\n\nfunc F[T any](x T) {\n\tgo g(x)\n}\n", "go statement involving type parameter T", 6},
		{"observed value with a promoted external method given to external code", "package p\n\nimport (\n\t\"io\"\n\t\"strings\"\n)\n\ntype B struct{ strings.Builder }\n\nfunc F() string {\n\tvar b B\n\tio.WriteString(&b, \"x\")\n\treturn b.String()\n}\n",
			"passing *example.com/p.B to io.WriteString as io.Writer, whose method Write is promoted from the embedded external type *strings.Builder", 12},
		{"unsafe.Pointer held by a result", "package p\n\nimport \"unsafe\"\n\ntype Ptr struct{ p unsafe.Pointer }\n\nfunc Of(x *int) []Ptr { return nil }\n", "signature holds an unsafe.Pointer by value ([]example.com/p.Ptr: field p)", 7},
		{"unsafe.Pointer held by a receiver", "package p\n\nimport \"unsafe\"\n\ntype Ptr [1]struct{ p unsafe.Pointer }\n\nfunc (p Ptr) IsNil() bool { return true }\n", "unsafe.Pointer by value", 7},
		{"slice result viewing a string's memory", "package p\n\nimport \"unsafe\"\n\nfunc Bytes(s string) []byte {\n\treturn unsafe.Slice(unsafe.StringData(s), len(s))\n}\n", "an exported function returning a slice that views a string's memory (unsafe.StringData)", 6},
		{"outcall returning a *reflect.MapIter", "package p\n\nimport \"reflect\"\n\ntype Iterer interface{ It() *reflect.MapIter }\n\nfunc Next(x Iterer) bool {\n\treturn x.It().Next()\n}\n", "an outcall returning a *reflect.MapIter ((example.com/p.Iterer).It) in a package whose reflection runs natively", 8},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := instrumentSource(t, "p/p.go", c.src)
			errs, ok := err.(transform.Errors)
			if !ok || len(errs) == 0 {
				t.Fatalf("want transform.Errors, got %v", err)
			}
			e := errs[0]
			if !strings.Contains(e.Construct, c.construct) || e.Pos.Line != c.line || e.Pos.Filename != "p/p.go" || e.Fix == "" {
				t.Errorf("got %q at %v (fix %q), want %q at p/p.go:%d", e.Construct, e.Pos, e.Fix, c.construct, c.line)
			}
			if !strings.Contains(e.Error(), "p/p.go:") {
				t.Errorf("message lacks file:line: %s", e.Error())
			}
		})
	}
}

// TestStringMemoryMarked: where the observed code takes a string's memory
// (unsafe.StringData, or `&s` converted to unsafe.Pointer to read its
// header), the string is marked, so that a slice over it crosses the
// boundary by value (runtime/probe/stringmem.go). An unexported function
// returning such a view is accepted (an exported one is rejected:
// TestRejects).
func TestStringMemoryMarked(t *testing.T) {
	src := "package p\n\nimport \"unsafe\"\n\ntype header struct {\n\tdata unsafe.Pointer\n\tn    int\n}\n\nfunc bytesOf(s string) []byte {\n\treturn unsafe.Slice(unsafe.StringData(s), len(s))\n}\n\nfunc Sum(s string) int {\n\tn := 0\n\tfor _, c := range bytesOf(s) {\n\t\tn += int(c)\n\t}\n\treturn n\n}\n\nfunc Len(s string) int {\n\tp := unsafe.Pointer(&s)\n\treturn (*header)(p).n + len(unsafe.Slice((*byte)(unsafe.Pointer(&s)), 1))\n}\n"
	out, err := instrumentSource(t, "p/p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"unsafe.StringData(_capture_string_mem(s))", "p := _capture_string_at(unsafe.Pointer(&s))", "(*byte)(_capture_string_at(unsafe.Pointer(&s)))"} {
		if !bytes.Contains(out.Files[0], []byte(want)) {
			t.Errorf("instrumented file lacks %q:\n%s", want, out.Files[0])
		}
	}
	for _, want := range []string{"func _capture_string_mem(s string) string", "func _capture_string_at(p unsafe.Pointer) unsafe.Pointer"} {
		if !bytes.Contains(out.Gen, []byte(want)) {
			t.Errorf("generated file lacks %q:\n%s", want, out.Gen)
		}
	}
}

// TestStringDataInsideIsAccepted: a view of a string's memory that no
// slice result carries out (xxhash's Sum64String hashes it) is not
// rejected: only the slice that crosses has an array identity to replay.
func TestStringDataInsideIsAccepted(t *testing.T) {
	src := "package p\n\nimport \"unsafe\"\n\nfunc sum(b []byte) uint64 {\n\tvar h uint64\n\tfor _, c := range b {\n\t\th = h*31 + uint64(c)\n\t}\n\treturn h\n}\n\nfunc Sum(s string) uint64 {\n\treturn sum(unsafe.Slice(unsafe.StringData(s), len(s)))\n}\n"
	if _, err := instrumentSource(t, "p/p.go", src); err != nil {
		t.Fatal(err)
	}
}

// TestReflectOverOwnValuesIsNative: reflection over the package's own
// values is not rejected and makes no outcall: it runs natively in capture
// and replay (a recorded reflect.Value cannot write observed memory).
func TestReflectOverOwnValuesIsNative(t *testing.T) {
	src := "package p\n\nimport \"reflect\"\n\ntype Config struct{ Port int }\n\nfunc Set(v int) Config {\n\tvar c Config\n\trv := reflect.ValueOf(&c).Elem()\n\tif f := rv.FieldByName(\"Port\"); f.CanSet() {\n\t\tf.SetInt(int64(v))\n\t}\n\t_ = reflect.TypeOf(c).Field(0).Type.Kind()\n\treturn c\n}\n"
	out, err := instrumentSource(t, "p/p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out.Gen, []byte("reflect")) || bytes.Contains(out.Files[0], []byte("_capture_out")) {
		t.Fatalf("reflection over owned values was instrumented:\n%s\n%s", out.Files[0], out.Gen)
	}
}

// TestLinesKept: every line of an instrumented file keeps its number
// (//line directives), so panics and compiler errors point at the original.
func TestLinesKept(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the go command")
	}
	lp, out := instrumentCorpus(t, filepath.Join("..", "..", "testdata", "corpus", "basic"), "example.com/basic/calc")
	orig, err := os.ReadFile(filepath.Join(lp.Dir, "calc.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "calc.go", out.Files[0], parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	origLines := strings.Split(string(orig), "\n")
	// Each function declaration of the output sits at the line of the
	// declaration it came from (names aside: exported ones were renamed).
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		pos := fset.PositionFor(fd.Pos(), true)
		name := strings.TrimPrefix(fd.Name.Name, "_capture_")
		if name == "init" {
			continue
		}
		line := origLines[pos.Line-1]
		if !strings.Contains(line, "func ") || !strings.Contains(line, name+"(") {
			t.Errorf("%s maps to calc.go:%d = %q", fd.Name.Name, pos.Line, line)
		}
	}
}

// TestPureDirective: //capture:pure makes calls of the named function run
// natively instead of being recorded.
func TestPureDirective(t *testing.T) {
	fset := token.NewFileSet()
	lib := types.NewPackage("example.com/lib", "lib")
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewVar(0, lib, "x", types.Typ[types.Int])), types.NewTuple(types.NewVar(0, lib, "", types.Typ[types.Int])), false)
	lib.Scope().Insert(types.NewFunc(0, lib, "Twice", sig))
	lib.MarkComplete()
	for _, directive := range []string{"", "//capture:pure example.com/lib.Twice\n"} {
		src := "package p\n\n" + directive + "import \"example.com/lib\"\n\nfunc F(x int) int { return lib.Twice(x) }\n"
		f, err := parser.ParseFile(fset, "p/p.go", src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
		conf := types.Config{Importer: importerFunc(func(string) (*types.Package, error) { return lib, nil })}
		pkg, err := conf.Check("example.com/p", fset, []*ast.File{f}, info)
		if err != nil {
			t.Fatal(err)
		}
		out, err := transform.Instrument(&transform.Package{Fset: fset, Files: []*ast.File{f}, Sources: [][]byte{[]byte(src)}, Types: pkg, Info: info}, transform.Options{})
		if err != nil {
			t.Fatal(err)
		}
		recorded := strings.Contains(string(out.Gen), `Name: "example.com/lib.Twice"`)
		if recorded != (directive == "") {
			t.Errorf("directive %q: outcall recorded = %v", directive, recorded)
		}
	}
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// TestHarnessInstances: the replay harness instantiates the generic incalls
// its logs name, with type arguments it can name, and says why not for the
// others.
func TestHarnessInstances(t *testing.T) {
	sites := []string{
		"example.com/m/gen.Map[int,string]",
		"example.com/m/gen.Map[int,string]", // once
		"(*example.com/m/gen.Stack[map[string][]*example.com/m/ext.Point]).Push",
		"example.com/m/gen.Pair[[4]uint8,<-chan example.com/m/ext.Point]",
		"example.com/m/gen.Plain",                 // not generic
		"example.com/m/other.Map[int]",            // not observed
		"callback example.com/m/gen.F[int].func1", // a callback, not an incall
		"example.com/m/gen.Map[main.item,int]",
		"example.com/m/gen.Map[example.com/m/ext.point,int]",
		"example.com/m/gen.Map[struct { X int },int]",
		"example.com/m/gen.Map[example.com/m/a/internal/x.T,int]",
		"example.com/m/gen.Map[int,struct {}]", // golang-lru's NewWithEvict[int, struct{}]
		"example.com/m/gen.Map[interface {},int]",
	}
	src, skipped, err := transform.HarnessInstances("main", "example.com/m/zz_capture_replay", []string{"example.com/m/gen"}, sites, nil)
	if err != nil {
		t.Fatal(err)
	}
	// (Import aliases are numbered in order of use.)
	for _, want := range []string{
		"CaptureInstance_Map[int, string]()",
		"CaptureInstance_Stack_Push[map[string][]*",
		"CaptureInstance_Pair[[4]uint8, <-chan ",
		"Point]()",
		"CaptureInstance_Map[int, struct{}]()",
		"CaptureInstance_Map[any, int]()",
	} {
		if !bytes.Contains(src, []byte(want)) {
			t.Errorf("instances lack %q:\n%s", want, src)
		}
	}
	if n := bytes.Count(src, []byte("CaptureInstance_Map[int, string]")); n != 1 {
		t.Errorf("Map[int,string] instantiated %d times:\n%s", n, src)
	}
	if bytes.Contains(src, []byte("other")) || bytes.Contains(src, []byte("Plain")) || bytes.Contains(src, []byte("func1")) {
		t.Errorf("instantiated a site that is not a generic incall of the observed set:\n%s", src)
	}
	wantSkipped := []string{"package main", "unexported", "literal or generic", "internal package"}
	if len(skipped) != len(wantSkipped) {
		t.Fatalf("skipped %q, want %d entries", skipped, len(wantSkipped))
	}
	for i, w := range wantSkipped {
		if !strings.Contains(skipped[i], w) {
			t.Errorf("skipped[%d] = %q, want it to say %q", i, skipped[i], w)
		}
	}
	if src, _, _ := transform.HarnessInstances("main", "m/h", []string{"m/gen"}, []string{"m/gen.F"}, nil); src != nil {
		t.Errorf("no generic site, yet a file:\n%s", src)
	}
}

// TestFieldReadOfStructField: x.F.G, with x a pointer to an external struct
// and x.F a struct held by value in it, reads x.F (a READ_OUT): go-toml's
// `expr.Raw.Offset + expr.Raw.Length` on an *unstable.Node was read
// natively from replay's placeholder, zero, and slicing with it panicked.
// Assigning to x.F.G, taking its address or calling a pointer method on
// x.F reads nothing.
func TestFieldReadOfStructField(t *testing.T) {
	src := "package p\n\nimport \"image\"\n\nfunc Width(m *image.RGBA) int {\n\treturn m.Rect.Max.X - (m.Rect).Min.X\n}\n"
	out, err := instrumentSource(t, "p/p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(out.Files[0], []byte("_capture_field_")); n != 2 || !bytes.Contains(out.Gen, []byte("reads (*image.RGBA).Rect")) {
		t.Errorf("m.Rect.Max.X - (m.Rect).Min.X: %d field reads instrumented, want 2 of (*image.RGBA).Rect:\n%s\n%s", n, out.Files[0], out.Gen)
	}
	for _, body := range []string{
		"m.Rect.Max.X = 1",
		"m.Rect.Min.X++",
		"p := &m.Rect.Max\n\t_ = p",
		"m.Rect.Max.X, m.Rect.Min.Y = 1, 2",
	} {
		write := "package p\n\nimport \"image\"\n\nfunc Set(m *image.RGBA) {\n\t" + body + "\n}\n"
		out, err = instrumentSource(t, "p/p.go", write)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(out.Files[0], []byte("_capture_field_")); n != 0 {
			t.Errorf("%s: %d field reads instrumented, want none:\n%s", body, n, out.Files[0])
		}
	}
}

// TestFieldReadUnderDereference: `*x.F` reads the external field x.F (a
// READ_OUT), as `x.F.G` does; only the target is copied or written
// (gorilla/mux's `url := *req.URL` once dereferenced the nil URL of
// replay's placeholder request: study repro derefcopy). A write through it, `*x.F = v`,
// is still no read of the field's target.
func TestFieldReadUnderDereference(t *testing.T) {
	src := "package p\n\nimport \"os\"\n\nfunc Copy(a *os.ProcAttr) bool {\n\ts := *a.Sys\n\t_ = s\n\treturn true\n}\n"
	out, err := instrumentSource(t, "p/p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	// a.Sys is a READ_OUT of the field; *a.Sys, a copy of the external
	// struct it points to, a READ_OUT of the pointee (study repro derefout).
	if !bytes.Contains(out.Files[0], []byte("s := _capture_deref_0(_capture_field_")) || !bytes.Contains(out.Gen, []byte("reads (*os.ProcAttr).Sys")) ||
		!bytes.Contains(out.Gen, []byte("reads *(*syscall.SysProcAttr)")) {
		t.Errorf("*a.Sys is not a READ_OUT of a.Sys and of its pointee:\n%s\n%s", out.Files[0], out.Gen)
	}
	write := "package p\n\nimport \"os\"\n\nfunc Set(a *os.ProcAttr) {\n\t*a.Sys = *a.Sys\n}\n"
	out, err = instrumentSource(t, "p/p.go", write)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(out.Files[0], []byte("_capture_field_")); n != 1 {
		t.Errorf("*a.Sys = *a.Sys: %d field reads instrumented, want 1 (the right side):\n%s", n, out.Files[0])
	}
}

// TestFieldReadOfIndexedMap: `r.Header[k]` only read is a READ_OUT of the
// map field (chi's walkXFF(r.Header["X-Forwarded-For"], ...): replay's
// placeholder request had an empty header; corpus handlerfunc's
// Forwarded, here go/ast's Scope.Objects). Assigned, or written through,
// it is not.
func TestFieldReadOfIndexedMap(t *testing.T) {
	for _, body := range []string{
		"o := r.Objects[\"X\"]\n\treturn len(o.Name)",
		"v, ok := r.Objects[\"X\"]\n\t_ = v\n\treturn b2i(ok)",
	} {
		src := "package p\n\nimport \"go/ast\"\n\nfunc N(r *ast.Scope) int {\n\t" + body + "\n}\n\nfunc b2i(b bool) int {\n\tif b {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"
		out, err := instrumentSource(t, "p/p.go", src)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(out.Files[0], []byte("_capture_field_")) || !bytes.Contains(out.Gen, []byte("reads (*go/ast.Scope).Objects")) {
			t.Errorf("%s: r.Objects[k] is not a READ_OUT of r.Objects:\n%s", body, out.Files[0])
		}
	}
	for _, body := range []string{
		"r.Objects[\"X\"] = nil",
		"r.Objects[\"X\"], r.Objects[\"Y\"] = nil, nil",
		"r.Objects[\"X\"].Name = \"v\"",
	} {
		src := "package p\n\nimport \"go/ast\"\n\nfunc Set(r *ast.Scope) {\n\t" + body + "\n}\n"
		out, err := instrumentSource(t, "p/p.go", src)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(out.Files[0], []byte("_capture_field_")); n != 0 {
			t.Errorf("%s: %d field reads instrumented, want none:\n%s", body, n, out.Files[0])
		}
	}
}
