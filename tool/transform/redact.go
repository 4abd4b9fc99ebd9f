package transform

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Redaction marks (docs/redaction.md). What is secret is written in the
// source, so that a Bazel build and the go-native front end, which both
// run this transform, capture the same way:
//
//	//capture:redact              on a type declaration: every value of the type
//	//capture:redact              on a struct field (doc or line comment)
//	//capture:redact p q          in a function's doc comment: its parameters p and q
//	//capture:redact-names +x -y  anywhere: edit the default names (value.DefaultRedactNames)
//
// Types and fields are registered with the runtime, which redacts them
// wherever they are encoded; parameters are redacted by the generated
// wrappers and outcall helpers (paramEncStmt), as are parameters whose
// name matches the names.

// redactState is what the package marks secret.
type redactState struct {
	names  []string                          // normalized names of the redact list
	types  map[*types.TypeName]bool          // types marked //capture:redact
	params map[*ast.FuncDecl]map[string]bool // parameters named by //capture:redact
}

const (
	redactMark      = "//capture:redact"
	redactNamesMark = "//capture:redact-names"
)

// redactArgs returns the text after a //capture:redact mark in c, and
// whether c is one.
func redactArgs(c *ast.Comment) (string, bool) {
	if strings.HasPrefix(c.Text, redactNamesMark) {
		return "", false
	}
	rest, ok := strings.CutPrefix(c.Text, redactMark)
	if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", false
	}
	return strings.TrimSpace(rest), true
}

func marked(cgs ...*ast.CommentGroup) bool {
	for _, cg := range cgs {
		if cg == nil {
			continue
		}
		for _, c := range cg.List {
			if _, ok := redactArgs(c); ok {
				return true
			}
		}
	}
	return false
}

// redactScan reads the package's marks and registers its types and
// fields with the runtime.
func (t *transformer) redactScan() {
	t.redact = redactState{types: map[*types.TypeName]bool{}, params: map[*ast.FuncDecl]map[string]bool{}}
	var edits []string
	for _, f := range t.p.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if rest, ok := strings.CutPrefix(c.Text, redactNamesMark+" "); ok {
					edits = append(edits, strings.Fields(rest)...)
				}
			}
		}
	}
	t.redact.names = value.ApplyRedactNames(value.DefaultRedactNames, edits)
	if len(edits) > 0 {
		q := make([]string, len(edits))
		for i, e := range edits {
			q[i] = strconv.Quote(e)
		}
		fmt.Fprintf(&t.register, "\t%s.RedactNames(%s)\n", t.probe, strings.Join(q, ", "))
	}
	for _, f := range t.p.Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					ts, ok := sp.(*ast.TypeSpec)
					if !ok {
						continue
					}
					var doc []*ast.CommentGroup
					if len(d.Specs) == 1 {
						doc = append(doc, d.Doc)
					}
					t.redactTypeSpec(ts, marked(append(doc, ts.Doc, ts.Comment)...))
				}
			case *ast.FuncDecl:
				t.redactFunc(d)
			}
		}
	}
}

func (t *transformer) redactTypeSpec(ts *ast.TypeSpec, whole bool) {
	tn, ok := t.p.Info.Defs[ts.Name].(*types.TypeName)
	if !ok {
		return
	}
	st, isStruct := ts.Type.(*ast.StructType)
	var fields []string
	if isStruct {
		for _, fl := range st.Fields.List {
			if !marked(fl.Doc, fl.Comment) {
				continue
			}
			if len(fl.Names) == 0 || !redactableType(t.p.Info.TypeOf(fl.Type)) {
				t.errorf(fl.Pos(), "//capture:redact on a field that is not a named string or []byte field",
					"mark string and []byte fields (a number such as a card number: store it as a string), or mark the struct type to redact all its string and []byte fields")
				continue
			}
			for _, n := range fl.Names {
				fields = append(fields, n.Name)
			}
		}
	}
	if !whole && len(fields) == 0 {
		return
	}
	if ts.TypeParams != nil || tn.IsAlias() {
		t.errorf(ts.Pos(), "//capture:redact on a generic type or an alias", "mark a non-generic named type")
		return
	}
	tsStr := t.printType(tn.Type())
	if whole {
		if !isStruct && !redactableType(tn.Type()) {
			t.errorf(ts.Pos(), "//capture:redact on a type that is neither a string, []byte nor struct type",
				"redaction covers strings and []byte (a number such as a card number: store it as a string)")
			return
		}
		t.redact.types[tn] = true
		fmt.Fprintf(&t.register, "\t%s.RedactType[%s]()\n", t.probe, tsStr)
	}
	for _, n := range fields {
		fmt.Fprintf(&t.register, "\t%s.RedactField[%s](%q)\n", t.probe, tsStr, n)
	}
}

func (t *transformer) redactFunc(fd *ast.FuncDecl) {
	if fd.Doc == nil {
		return
	}
	for _, c := range fd.Doc.List {
		args, ok := redactArgs(c)
		if !ok {
			continue
		}
		if args == "" {
			t.errorf(c.Pos(), "//capture:redact without parameter names on a function", "name the parameters to redact: //capture:redact password")
			continue
		}
		params := map[string]types.Type{}
		if fn, ok := t.p.Info.Defs[fd.Name].(*types.Func); ok {
			sig := fn.Type().(*types.Signature)
			for i := 0; i < sig.Params().Len(); i++ {
				params[sig.Params().At(i).Name()] = sig.Params().At(i).Type()
			}
		}
		for _, name := range strings.Fields(args) {
			pt, ok := params[name]
			switch {
			case !ok:
				t.errorf(c.Pos(), "//capture:redact naming "+name+", which is no parameter of "+fd.Name.Name, "name the function's parameters")
			case !redactableType(pt):
				t.errorf(c.Pos(), "//capture:redact naming parameter "+name+", which is neither a string nor a []byte",
					"redaction covers strings and []byte (a number such as a card number: pass it as a string)")
			default:
				if t.redact.params[fd] == nil {
					t.redact.params[fd] = map[string]bool{}
				}
				t.redact.params[fd][name] = true
			}
		}
	}
}

// redactableType: values of typ can be redacted (a string or []byte type).
func redactableType(typ types.Type) bool {
	if typ == nil {
		return false
	}
	if b, ok := typ.Underlying().(*types.Basic); ok {
		return b.Info()&types.IsString != 0
	}
	return isByteSlice(typ)
}

// paramEncStmt is encStmt for parameter pname of function fname (a
// result if pname is empty): the parameter is redacted if the function's
// doc marks it (forced), its name matches the redact list, or its type is
// one the package marks. Other values go through encStmt, unchanged.
func (t *transformer) paramEncStmt(e string, typ types.Type, pname, fname string, forced bool) string {
	if !redactableType(typ) {
		return t.encStmt(e, typ)
	}
	desc := ""
	switch {
	case forced || pname != "" && pname != "_" && value.RedactNameMatches(pname, t.redact.names):
		desc = "parameter " + pname + " of " + fname
	default:
		if n, ok := types.Unalias(typ).(*types.Named); ok && t.redact.types[n.Obj()] {
			desc = "type " + types.TypeString(n, fullQualifier)
		}
	}
	if desc == "" {
		return t.encStmt(e, typ)
	}
	if isByteSlice(typ) {
		return fmt.Sprintf("s.SecretBytes([]byte(%s), %q)", e, desc)
	}
	return fmt.Sprintf("s.Secret(string(%s), %q)", e, desc)
}
