package transform

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The generated file is a file of the observed package, so whatever the
// package declares at its top level hides the predeclared identifier of
// the same name there too: bitset's func max(x, y uint) uint made the
// generated min(max(r0, 0), len(p)) call it. The generated code is written
// with the predeclared names; where the package hides one of them, the
// finished file is respelled (respell): each use of a hidden name that the
// generated code means as the predeclared one becomes probe's counterpart
// (probe.Builtin_max, probe.Builtin_int, probe.Builtin_true), which no
// package can hide. The package's own types of such a name (type any
// interface{ ... }) are printed with a mark (ownMark) that respell turns
// back into the bare name.

// ownMark prefixes, in the generated text, a type of the package itself
// whose name hides a predeclared one.
const ownMark = "_capture_own_"

// builtinFuncs are the builtin functions probe has a counterpart of (for
// the operand types the generated code applies them to).
var builtinFuncs = map[string]bool{"len": true, "cap": true, "copy": true, "min": true, "max": true, "close": true, "panic": true}

// findHidden records the predeclared names that the package's top-level
// declarations hide (an alias of the very same type hides nothing: type
// any = interface{}), and rejects a declaration of nil, which the
// instrumented code cannot spell otherwise.
func (t *transformer) findHidden() {
	t.hidden = map[string]bool{}
	scope := t.p.Types.Scope()
	for _, name := range types.Universe.Names() {
		obj := scope.Lookup(name)
		if obj == nil {
			continue
		}
		if tn, ok := obj.(*types.TypeName); ok && tn.IsAlias() {
			if u, ok := types.Universe.Lookup(name).(*types.TypeName); ok && types.Identical(tn.Type(), u.Type()) {
				continue
			}
		}
		t.hidden[name] = true
		if _, ok := obj.(*types.TypeName); ok {
			t.hiddenType = true
		}
	}
	for _, name := range t.hiddenByTests() {
		t.hidden[name] = true
	}
	var nils []token.Pos
	for id, obj := range t.p.Info.Defs {
		if obj != nil && id.Name == "nil" {
			nils = append(nils, id.Pos())
		}
	}
	sort.Slice(nils, func(i, j int) bool { return nils[i] < nils[j] })
	for _, pos := range nils {
		t.errorf(pos, "a declaration named nil", "rename it: the instrumented code compares with the predeclared nil, which it would hide")
	}
}

// hiddenByTests returns the predeclared names that the package's own test
// files (package p, not p_test) declare at their top level: they are
// compiled with the generated file into the test binary (bitset declares
// its func max in bitset_fuzz_test.go). A test file that the build
// excludes only makes the generated file spell a name through probe where
// it need not.
func (t *transformer) hiddenByTests() []string {
	if len(t.p.Files) == 0 {
		return nil
	}
	dir := filepath.Dir(t.p.Fset.Position(t.p.Files[0].Pos()).Filename)
	paths, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	var names []string
	fset := token.NewFileSet()
	for _, path := range paths {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil || f.Name.Name != t.p.Types.Name() {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names = append(names, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						names = append(names, sp.Name.Name)
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							names = append(names, n.Name)
						}
					}
				}
			}
		}
	}
	var out []string
	for _, n := range names {
		if n != "nil" && types.Universe.Lookup(n) != nil {
			out = append(out, n)
		}
	}
	return out
}

// printType prints typ with t.qualifier; types of the package whose names
// hide predeclared ones get ownMark.
func (t *transformer) printType(typ types.Type) string {
	if !t.hiddenType {
		return types.TypeString(typ, t.qualifier)
	}
	s := types.TypeString(typ, func(p *types.Package) string {
		if p == t.p.Types {
			return ownMarkQual
		}
		return t.qualifier(p)
	})
	return ownQualRE.ReplaceAllStringFunc(s, func(m string) string {
		name := strings.TrimPrefix(m, ownMarkQual+".")
		if t.hidden[name] {
			return ownMark + name
		}
		return name
	})
}

const ownMarkQual = "_capture_own"

var ownQualRE = regexp.MustCompile(ownMarkQual + `\.\w+`)

// respell rewrites, in the generated file's source, the predeclared names
// the package hides (see above).
func (t *transformer) respell(src []byte) ([]byte, error) {
	if len(t.hidden) == 0 && !t.hiddenType {
		return src, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, GeneratedFile, src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("transform: generated file does not parse (internal error): %w", err)
	}
	unresolved := map[*ast.Ident]bool{}
	for _, id := range f.Unresolved {
		unresolved[id] = true
	}
	type edit struct {
		start, end int
		text       string
	}
	var eds []edit
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var bad error
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		id, ok := n.(*ast.Ident)
		if !ok || !unresolved[id] {
			return true
		}
		if name, ok := strings.CutPrefix(id.Name, ownMark); ok {
			eds = append(eds, edit{off(id.Pos()), off(id.End()), name})
			return true
		}
		if !t.hidden[id.Name] {
			return true
		}
		parent := stack[len(stack)-2]
		if kv, ok := parent.(*ast.KeyValueExpr); ok && kv.Key == id {
			return true // a field name in a composite literal
		}
		spelled := t.probe + ".Builtin_" + id.Name
		switch types.Universe.Lookup(id.Name).(type) {
		case *types.TypeName, *types.Const:
		case *types.Builtin:
			call, ok := parent.(*ast.CallExpr)
			if !ok || call.Fun != id || !builtinFuncs[id.Name] {
				bad = fmt.Errorf("transform: the generated code uses the builtin %s, which the package's own %s hides (internal error)", id.Name, id.Name)
				return true
			}
			if id.Name == "panic" {
				// Builtin_panic is no terminating statement; a for loop
				// without a condition is.
				st, ok := stack[len(stack)-3].(*ast.ExprStmt)
				if !ok {
					bad = fmt.Errorf("transform: the generated code uses panic in an expression, and the package's own panic hides it (internal error)")
					return true
				}
				eds = append(eds, edit{off(st.Pos()), off(st.Pos()), "for {\n"}, edit{off(st.End()), off(st.End()), "\n}"})
			}
		default:
			bad = fmt.Errorf("transform: the generated code uses %s, which the package's own %s hides (internal error)", id.Name, id.Name)
			return true
		}
		eds = append(eds, edit{off(id.Pos()), off(id.End()), spelled})
		return true
	})
	if bad != nil {
		return nil, bad
	}
	sort.SliceStable(eds, func(i, j int) bool { return eds[i].start < eds[j].start })
	var b strings.Builder
	last := 0
	for _, e := range eds {
		b.Write(src[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.Write(src[last:])
	return []byte(b.String()), nil
}
