// Package mutate generates simple first-order mutants of Go source files:
// a flipped comparison, an integer constant off by one, a dropped
// statement. Candidates are found in the syntax tree, not picked by hand,
// and the choice among them is deterministic for a given seed, so a study
// that reports "replays detected 4 of 5 mutants" can be re-run exactly.
//
// A mutant is a textual edit of the original bytes (offset, old, new):
// everything else of the file, including comments and formatting, stays as
// it was, so positions in compiler errors and divergence reports still
// point at the original lines.
package mutate

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand"
	"sort"
	"strconv"
)

// Operator names the kind of change a mutant makes.
type Operator string

const (
	FlipComparison Operator = "flip-comparison" // == ↔ !=, < ↔ >=, > ↔ <=
	OffByOne       Operator = "off-by-one"      // integer literal n → n+1
	DropStatement  Operator = "drop-statement"  // an expression, assignment or ++/-- statement removed
)

// A Mutant is one edit of one file.
type Mutant struct {
	File     string   `json:"file"`     // as given to Candidates
	Line     int      `json:"line"`     // 1-based line of the edit
	Func     string   `json:"func"`     // enclosing function, e.g. "(*Version).Compare"
	Operator Operator `json:"operator"` //
	Offset   int      `json:"offset"`   // byte offset of Old in the file
	Old      string   `json:"old"`
	New      string   `json:"new"`
}

// ID is a short stable name of the mutant, e.g. "version.go:321:flip-comparison".
func (m Mutant) ID() string { return fmt.Sprintf("%s:%d:%s", baseName(m.File), m.Line, m.Operator) }

func (m Mutant) String() string {
	return fmt.Sprintf("%s:%d in %s: %s %q -> %q", baseName(m.File), m.Line, m.Func, m.Operator, m.Old, m.New)
}

// Apply returns src with the mutant's edit applied. It fails if src does
// not hold m.Old at m.Offset (the file changed since the mutant was made).
func (m Mutant) Apply(src []byte) ([]byte, error) {
	end := m.Offset + len(m.Old)
	if m.Offset < 0 || end > len(src) || string(src[m.Offset:end]) != m.Old {
		return nil, fmt.Errorf("mutant %s: the file does not hold %q at offset %d (regenerate the mutants)", m.ID(), m.Old, m.Offset)
	}
	out := make([]byte, 0, len(src)-len(m.Old)+len(m.New))
	out = append(out, src[:m.Offset]...)
	out = append(out, m.New...)
	return append(out, src[end:]...), nil
}

var flipped = map[token.Token]token.Token{
	token.EQL: token.NEQ, token.NEQ: token.EQL,
	token.LSS: token.GEQ, token.GEQ: token.LSS,
	token.GTR: token.LEQ, token.LEQ: token.GTR,
}

// Candidates returns every mutant of one file, in source order. Only code
// inside function bodies is mutated: package-level declarations, array
// lengths and constant expressions would mostly produce mutants that do
// not compile or that no test can reach.
func Candidates(filename string, src []byte) ([]Mutant, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []Mutant
	add := func(fn string, pos token.Pos, op Operator, old, new string) {
		p := fset.Position(pos)
		out = append(out, Mutant{File: filename, Line: p.Line, Func: fn, Operator: op, Offset: p.Offset, Old: old, New: new})
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		fn := funcName(fd)
		addDrop := func(s ast.Stmt) {
			start, end := fset.Position(s.Pos()).Offset, fset.Position(s.End()).Offset
			add(fn, s.Pos(), DropStatement, string(src[start:end]), "/* dropped by mutant */")
		}
		var inspect func(n ast.Node) bool
		inspect = func(n ast.Node) bool {
			if cc, ok := n.(*ast.CaseClause); ok {
				// Case expressions: an off-by-one can duplicate a case
				// (a compile error); mutate only the bodies.
				for _, s := range cc.Body {
					if droppable(s) {
						addDrop(s)
					}
					ast.Inspect(s, inspect)
				}
				return false
			}
			return visit(fn, n, add, src, fset)
		}
		ast.Inspect(fd.Body, inspect)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out, nil
}

// visit adds the mutants of node n; it reports whether to descend.
func visit(fn string, n ast.Node, add func(string, token.Pos, Operator, string, string), src []byte, fset *token.FileSet) bool {
	switch n := n.(type) {
	case *ast.ArrayType:
		return false
	case *ast.GenDecl:
		return n.Tok != token.CONST
	case *ast.BinaryExpr:
		if to, ok := flipped[n.Op]; ok {
			add(fn, n.OpPos, FlipComparison, n.Op.String(), to.String())
		}
	case *ast.BasicLit:
		if n.Kind == token.INT {
			if v, err := strconv.ParseInt(n.Value, 0, 64); err == nil && v < 1<<31 {
				add(fn, n.Pos(), OffByOne, n.Value, strconv.FormatInt(v+1, 10))
			}
		}
	case *ast.BlockStmt:
		for _, s := range n.List {
			if droppable(s) {
				start, end := fset.Position(s.Pos()).Offset, fset.Position(s.End()).Offset
				add(fn, s.Pos(), DropStatement, string(src[start:end]), "/* dropped by mutant */")
			}
		}
	}
	return true
}

// droppable: statements whose removal leaves a compiling program in most
// cases. Assignments that declare (:=) would leave later uses undefined;
// returns, branches and declarations change control flow or scope.
func droppable(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ExprStmt:
		_, call := s.X.(*ast.CallExpr)
		return call
	case *ast.AssignStmt:
		return s.Tok != token.DEFINE
	case *ast.IncDecStmt:
		return true
	}
	return false
}

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return "(" + star + id.Name + ")." + fd.Name.Name
	}
	return fd.Name.Name
}

// Pick returns up to n candidates chosen pseudo-randomly but
// deterministically from seed, spread over the operators: it draws an
// operator in turn, then a candidate of that operator, so a file rich in
// integer literals does not crowd out the other kinds. The result is in
// draw order; callers that skip mutants (e.g. ones that do not compile)
// take the next from a longer pick.
func Pick(cands []Mutant, n int, seed int64) []Mutant {
	byOp := map[Operator][]Mutant{}
	for _, c := range cands {
		byOp[c.Operator] = append(byOp[c.Operator], c)
	}
	ops := []Operator{FlipComparison, OffByOne, DropStatement}
	r := rand.New(rand.NewSource(seed))
	for _, op := range ops {
		list := byOp[op]
		r.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
	}
	var out []Mutant
	for len(out) < n {
		progressed := false
		for _, op := range ops {
			if len(out) == n {
				break
			}
			if list := byOp[op]; len(list) > 0 {
				out = append(out, list[0])
				byOp[op] = list[1:]
				progressed = true
			}
		}
		if !progressed {
			break
		}
	}
	return out
}

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' || p[i] == '\\' {
			return p[i+1:]
		}
	}
	return p
}
