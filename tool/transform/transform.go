// Package transform instruments the Go files of one observed package: it
// injects the probes of rules_capture at the boundary of the observed set
// (docs/design/boundary-model.md).
//
// It works from syntax and full type information only (go/ast, go/types), so
// any front end can drive it: go/packages or `go list` with source
// type-checking (the go-native `capture` command), or a Bazel action that
// type-checks against the export data of the dependencies.
//
// The output keeps the user's files line for line: exported functions are
// renamed to _capture_<Name> in place, outcalls are routed through a helper
// (`time.Now()` becomes `_capture_out_3(time.Now)`), and every file starts
// with a //line directive naming the original file, so compiler errors,
// panics and stack traces point at the original file:line. The wrappers,
// helpers and registrations go to one generated file.
package transform

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ProbeImport is the import path of the probe API, the only runtime
// package generated code imports.
const ProbeImport = "github.com/rules-capture/rules_capture/runtime/probe"

// GeneratedFile is the base name of the file Instrument adds to the package.
const GeneratedFile = "zz_capture_gen.go"

// Package is one type-checked package to instrument.
type Package struct {
	Fset  *token.FileSet
	Files []*ast.File // the package's non-test files, in compilation order
	// Sources holds the text of each file (same order); if nil the files are
	// read from the paths the FileSet records.
	Sources [][]byte
	Types   *types.Package
	Info    *types.Info // needs Types, Defs, Uses, Selections
	// DisplayNames optionally gives the file names to put in //line
	// directives (default: the FileSet's names).
	DisplayNames []string
	// Tests are the package's in-package test files (package P, not
	// P_test), parsed but not type-checked: the unexported functions and
	// methods they call or take as values are wrapped as incalls too
	// (testUses).
	Tests []*ast.File
}

// Options describe the observed set.
type Options struct {
	Observed []string        // import paths of every observed package (this one included)
	Pure     map[string]bool // extra pure functions or packages ("pkg.Func" or "pkg")
}

// Output is the instrumented package.
type Output struct {
	Files [][]byte // instrumented text of each input file, same order
	Gen   []byte   // the generated file, GeneratedFile, in the package directory
	// TestIncalls are the unexported functions and methods wrapped as
	// incalls because the package's in-package tests name them, as F or
	// T.M (T the receiver's type name): a test may call them, replay
	// performs those calls.
	TestIncalls map[string]bool
}

// Error is a construct the transform rejects.
type Error struct {
	Pos       token.Position
	Construct string
	Fix       string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s is not supported in an observed package: %s", e.Pos, e.Construct, e.Fix)
}

// Errors is the list of rejected constructs of a package.
type Errors []*Error

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

type edit struct {
	start, end int // byte offsets in the file
	text       string
	span       int // size of the enclosing node: insertions at one offset go outermost first
}

type transformer struct {
	p        *Package
	opts     Options
	observed map[string]bool
	srcs     [][]byte
	names    []string // display names

	edits [][]edit
	errs  Errors

	imports  map[string]string // import path -> alias in the generated file
	taken    map[string]bool   // identifiers not usable as aliases
	probe    string            // alias of the probe package
	gen      bytes.Buffer      // declarations of the generated file
	inits    bytes.Buffer      // statements of the generated init function
	register bytes.Buffer      // statements run by BeginInit (types, sentinels)
	nsite    int
	goWith   bool // _capture_go_with is generated (wggo.go)
	regTypes map[string]bool
	phs      map[string]bool // interface types with a placeholder
	sentinel map[string]bool
	file     int // index of the file being walked
	unnamed  string
	// allowTP: type parameters may be named (in the generic wrapper or
	// helper being generated, which declares them).
	allowTP bool

	phTypes  []types.Type // interface types with a placeholder, in order
	imported []types.Type // importedTypes, once computed
	asserted []types.Type // interface types observed code asserts to (typeident.go)

	paramOwned    map[*types.Var]bool    // parameters that only receive owned addresses (outparam.go)
	paramDeciding map[*types.Var]bool    // parameters ownedParam is deciding, assumed owned meanwhile
	ifaceMethods  map[string]bool        // names of the methods the package's interface types declare (ifaceMethodName)
	owns          ownsState              // owned addresses marked at run time (owned.go)
	addrs         addrState              // address reads that must stay native (address.go)
	strMem        struct{ mem, at bool } // string-marking helpers generated (stringdata.go)

	// initFiles counts the source files that declare init functions; each
	// ends with a call of _capture_end_init (initMarkers).
	initFiles int

	selects  []pendingSelect   // rewritten after the file's walk (chans.go)
	chanComm map[ast.Node]bool // receives and sends of select cases

	sortedHelper   bool            // _capture_sorted is generated (maporder.go)
	sortedOfHelper bool            // _capture_sorted_tp is generated (maporder.go)
	iterHelper     bool            // _capture_iter is generated (maporder.go)
	iterOfHelper   bool            // _capture_iter_tp is generated (maporder.go)
	mapKeysHelper  bool            // _capture_mapkeys is generated (maporder.go)
	mapRangeHelper bool            // _capture_maprange and its setters are generated (maporder.go)
	lockGen        map[string]bool // lock turn helpers generated (lockturns.go)

	goStmtCalls map[*ast.CallExpr]bool // calls of the package's go statements (chanturns.go)
	goFuncs     map[*types.Func]bool   // functions of the package that goroutines start (chanturns.go)

	redact redactState // what the package marks secret (redact.go)

	// outsideReflect: where the package first reflects over a value from
	// outside (reflect.go); empty: it reflects only over its own values.
	outsideReflect string
	// reflectWrites: the package writes memory through reflection (reflect.go).
	reflectWrites bool

	// hidden: the predeclared names the package's own declarations hide;
	// hiddenType: some of them by a type of the package (universe.go).
	hidden     map[string]bool
	hiddenType bool

	// testUses: the names the package's in-package test files refer to;
	// the unexported functions and methods of those names are incalls
	// (testIncalls: those wrapped).
	testUses    map[string]bool
	testIncalls map[string]bool

	// droppedRefs counts, per file, the references to an imported package
	// that rewritten call sites no longer hold (a generic function called
	// through its helper, generic.go): a file left without any keeps the
	// import under the blank name.
	droppedRefs map[int]map[*types.PkgName]int
}

type pendingSelect struct {
	x     *ast.SelectStmt
	stack []ast.Node
}

// Instrument instruments p. Unsupported constructs are returned as Errors,
// each with the file:line and what to do.
func Instrument(p *Package, opts Options) (*Output, error) {
	t := &transformer{
		p:        p,
		opts:     opts,
		observed: map[string]bool{},
		imports:  map[string]string{},
		taken:    map[string]bool{},
		regTypes: map[string]bool{},
		phs:      map[string]bool{},
		sentinel: map[string]bool{},
		chanComm: map[ast.Node]bool{},
	}
	for _, o := range opts.Observed {
		t.observed[o] = true
	}
	// //capture:pure directives extend the pure list for this package.
	t.opts.Pure = map[string]bool{}
	for k, v := range opts.Pure {
		t.opts.Pure[k] = v
	}
	for _, f := range p.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if rest, ok := strings.CutPrefix(c.Text, "//capture:pure "); ok {
					for _, name := range strings.Fields(rest) {
						t.opts.Pure[name] = true
					}
				}
			}
		}
	}
	t.observed[p.Types.Path()] = true
	t.testUses = testUses(p.Tests)
	if err := t.load(); err != nil {
		return nil, err
	}
	for _, n := range p.Types.Scope().Names() {
		t.taken[n] = true
	}
	t.findHidden()
	t.probe = t.alias(ProbeImport, "probe")
	// Every concrete type of the package can be rebuilt by replay (values of
	// observed types inside interfaces).
	for _, n := range p.Types.Scope().Names() {
		if tn, ok := p.Types.Scope().Lookup(n).(*types.TypeName); ok && !tn.IsAlias() {
			if iface, ok := tn.Type().Underlying().(*types.Interface); ok && !iface.IsMethodSet() {
				continue // a constraint, not a type of values
			}
			if named, ok := tn.Type().(*types.Named); ok && named.TypeParams() == nil {
				s := t.printType(named)
				t.regTypes[s] = true
				fmt.Fprintf(&t.register, "\t%s.OwnType[%s]()\n", t.probe, s)
				t.promoted(named, s)
			}
		}
	}

	t.redactScan()

	t.edits = make([][]edit, len(p.Files))
	t.findOutsideReflection()
	for i, f := range p.Files {
		t.file = i
		t.rejectFile(f)
		t.walk(f)
		for _, sel := range t.selects {
			t.selectStmt(sel.x, sel.stack)
		}
		t.selects = nil
	}
	if len(t.errs) > 0 {
		sort.SliceStable(t.errs, func(i, j int) bool {
			a, b := t.errs[i].Pos, t.errs[j].Pos
			if a.Filename != b.Filename {
				return a.Filename < b.Filename
			}
			return a.Line < b.Line
		})
		return nil, t.errs
	}
	for i, f := range p.Files {
		t.file = i
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				t.funcDecl(fd)
			}
		}
	}
	if len(t.errs) > 0 {
		return nil, t.errs
	}
	t.initMarkers()
	t.assertedPlaceholders()
	out := &Output{TestIncalls: t.testIncalls}
	for i := range p.Files {
		src, err := t.apply(i)
		if err != nil {
			return nil, err
		}
		out.Files = append(out.Files, src)
	}
	gen, err := t.generated()
	if err != nil {
		return nil, err
	}
	out.Gen = gen
	return out, nil
}

func (t *transformer) load() error {
	t.srcs = t.p.Sources
	if t.srcs == nil {
		for _, f := range t.p.Files {
			name := t.p.Fset.File(f.Pos()).Name()
			b, err := os.ReadFile(name)
			if err != nil {
				return fmt.Errorf("transform: reading %s: %w", name, err)
			}
			t.srcs = append(t.srcs, b)
		}
	}
	if len(t.srcs) != len(t.p.Files) {
		return fmt.Errorf("transform: %d sources for %d files", len(t.srcs), len(t.p.Files))
	}
	t.names = t.p.DisplayNames
	if t.names == nil {
		for _, f := range t.p.Files {
			t.names = append(t.names, t.p.Fset.File(f.Pos()).Name())
		}
	}
	return nil
}

func (t *transformer) errorf(pos token.Pos, construct, fix string) {
	t.errs = append(t.errs, &Error{Pos: t.p.Fset.Position(pos), Construct: construct, Fix: fix})
}

func (t *transformer) offset(pos token.Pos) int { return t.p.Fset.Position(pos).Offset }

func (t *transformer) add(start, end token.Pos, text string, span int) {
	t.edits[t.file] = append(t.edits[t.file], edit{t.offset(start), t.offset(end), text, span})
}

// sitePos is the position recorded in the log: "<package dir>/<file>:<line>",
// independent of where the source was checked out.
func (t *transformer) sitePos(pos token.Pos) string {
	p := t.p.Fset.Position(pos)
	return filepath.Base(filepath.Dir(p.Filename)) + "/" + filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
}

// alias returns the name under which the generated file imports path.
func (t *transformer) alias(path, name string) string {
	if a, ok := t.imports[path]; ok {
		return a
	}
	base := name
	if base == "" || base == "_" {
		base = "pkg"
	}
	a := base
	// Nor a predeclared name: the generated code uses those.
	for i := 2; t.taken[a] || types.Universe.Lookup(a) != nil || a == "_r" || a == "s" || a == "f" || a == "fn"; i++ {
		a = base + strconv.Itoa(i)
	}
	t.taken[a] = true
	t.imports[path] = a
	return a
}

// rejectFile reports file-level constructs the transform cannot instrument.
func (t *transformer) rejectFile(f *ast.File) {
	for _, imp := range f.Imports {
		if imp.Path.Value == `"C"` {
			t.errorf(imp.Pos(), "cgo (import \"C\")", "move the cgo code into a separate, unobserved package and call it from the observed one")
		}
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:linkname") {
				t.errorf(c.Pos(), "//go:linkname", "remove the directive or move it into an unobserved package: a linknamed symbol bypasses the boundary")
			}
		}
	}
}

// apply applies the edits of file i, formats the result and adds the
// //line directive that names the original file.
func (t *transformer) apply(i int) ([]byte, error) {
	src := t.srcs[i]
	f := t.p.Files[i]
	tf := t.p.Fset.File(f.Pos())
	es := append([]edit{}, t.edits[i]...)
	es = append(es, t.unusedImports(i)...)
	// After the package clause: a directive there is no doc comment of
	// anything, so gofmt leaves it where it is.
	pkgLine := tf.Line(f.Name.Pos())
	es = append(es, edit{start: t.offset(f.Name.End()), end: t.offset(f.Name.End()),
		text: fmt.Sprintf("\n\n//line %s:%d", t.names[i], pkgLine+1), span: 1 << 30})
	sort.SliceStable(es, func(a, b int) bool {
		if es[a].start != es[b].start {
			return es[a].start < es[b].start
		}
		// An insertion before a replacement that starts where it is: it
		// closes an inner construct the replacement follows (the ")" after
		// a READ_OUT helper's &pkg.Var, then ", " for the method call on
		// it: pkg.Var.M(x)); after the replacement it could not be placed.
		if ia, ib := es[a].start == es[a].end, es[b].start == es[b].end; ia != ib {
			return ia
		}
		return es[a].span > es[b].span
	})
	var b bytes.Buffer
	last := 0
	for _, e := range es {
		if e.start < last {
			return nil, fmt.Errorf("transform: overlapping edits in %s at offset %d (internal error)", t.names[i], e.start)
		}
		b.Write(src[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.Write(src[last:])
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("transform: instrumented %s does not parse (internal error): %w\n%s", t.names[i], err, b.Bytes())
	}
	if bytes.Count(out, []byte("\n")) != bytes.Count(b.Bytes(), []byte("\n")) {
		// The source was not gofmt-clean: formatting moved lines, which
		// would move panics' file:line. Keep the lines.
		return b.Bytes(), nil
	}
	return out, nil
}

// qualifier prints types for the generated file.
func (t *transformer) qualifier(p *types.Package) string {
	if p == t.p.Types {
		return ""
	}
	return t.alias(p.Path(), p.Name())
}

// typeString prints typ for the generated file, or reports why it cannot
// be named there.
func (t *transformer) typeString(typ types.Type) (string, string) {
	if why := t.unnameable(typ, map[types.Type]bool{}); why != "" {
		return "", why
	}
	return t.printType(typ), ""
}

func (t *transformer) unnameable(typ types.Type, seen map[types.Type]bool) string {
	if seen[typ] {
		return ""
	}
	seen[typ] = true
	switch x := typ.(type) {
	case *types.Named:
		obj := x.Obj()
		if obj.Pkg() != nil && obj.Pkg() != t.p.Types {
			if !obj.Exported() {
				return "unexported type " + obj.Pkg().Path() + "." + obj.Name()
			}
			if !importable(t.p.Types.Path(), obj.Pkg().Path()) {
				return "type " + obj.Pkg().Path() + "." + obj.Name() + " from a package this one cannot import"
			}
		}
		if obj.Pkg() == t.p.Types && obj.Parent() != nil && obj.Parent() != t.p.Types.Scope() {
			return "type " + obj.Name() + " declared inside a function"
		}
		if ta := x.TypeArgs(); ta != nil {
			for i := 0; i < ta.Len(); i++ {
				if w := t.unnameable(ta.At(i), seen); w != "" {
					return w
				}
			}
		}
		return ""
	case *types.Alias:
		return t.unnameable(types.Unalias(x), seen)
	case *types.Pointer:
		return t.unnameable(x.Elem(), seen)
	case *types.Slice:
		return t.unnameable(x.Elem(), seen)
	case *types.Array:
		return t.unnameable(x.Elem(), seen)
	case *types.Map:
		if w := t.unnameable(x.Key(), seen); w != "" {
			return w
		}
		return t.unnameable(x.Elem(), seen)
	case *types.Chan:
		return t.unnameable(x.Elem(), seen)
	case *types.Signature:
		for _, tup := range []*types.Tuple{x.Params(), x.Results()} {
			for i := 0; i < tup.Len(); i++ {
				if w := t.unnameable(tup.At(i).Type(), seen); w != "" {
					return w
				}
			}
		}
	case *types.Struct:
		for i := 0; i < x.NumFields(); i++ {
			if !x.Field(i).Exported() && x.Field(i).Pkg() != t.p.Types {
				return "struct type with unexported fields of another package"
			}
			if w := t.unnameable(x.Field(i).Type(), seen); w != "" {
				return w
			}
		}
	case *types.Interface:
		for i := 0; i < x.NumMethods(); i++ {
			m := x.Method(i)
			if !m.Exported() && m.Pkg() != t.p.Types {
				return "interface with unexported methods of another package"
			}
		}
	case *types.TypeParam:
		if t.allowTP && x.Obj().Name() != "_" {
			return ""
		}
		return "type parameter " + x.Obj().Name()
	}
	return ""
}

// importable applies the internal-package rule.
func importable(from, path string) bool {
	if path == "main" {
		return false
	}
	i := strings.LastIndex(path, "/internal/")
	switch {
	case i >= 0:
	case strings.HasSuffix(path, "/internal"):
		i = len(path) - len("/internal")
	case strings.HasPrefix(path, "internal/") || path == "internal":
		return false // the standard library's internal packages
	default:
		return true
	}
	parent := path[:i]
	return from == parent || strings.HasPrefix(from, parent+"/")
}
