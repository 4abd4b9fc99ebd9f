package transform

import (
	"go/types"
	"slices"
	"strings"
)

// promotedRecv returns how an outcall helper reaches the receiver of method
// m, selected from a value of type xt through the embedded fields of path
// (types.Selection.Index: the fields, then the method): the selector suffix
// written after the receiver expression (".A.B"), the static type there,
// and whether that is a value the method is promoted from rather than its
// own receiver.
//
// The helper used to name every embedded field on the path, x.A.B, but a
// field of an unexported type of another package cannot be named outside
// it: goldmark's ast.Link embeds ast.baseLink, which embeds
// ast.BaseInline, so n.Attributes() became &n.baseLink.BaseInline.BaseNode
// and the instrumented package did not compile. Such a field is left for
// the selector to pass through implicitly, as the original code did:
// &n.BaseInline.BaseNode, when that selects the same fields (no shallower
// or equally deep field of the same name hides them). When the method's own
// receiver type cannot be named either (a method of baseLink itself), the
// helper takes the deepest value on the path whose type it can name (n, a
// *ast.Link) and calls the method promoted from there: the same method on
// the same memory.
func (t *transformer) promotedRecv(xt types.Type, path []int, m *types.Func) (fieldPath string, typ types.Type, promoted bool, why string) {
	fields := make([]*types.Var, 0, len(path)-1)
	typ = xt
	for _, idx := range path[:len(path)-1] {
		u := typ
		if p, ok := u.Underlying().(*types.Pointer); ok {
			u = p.Elem()
		}
		st, ok := u.Underlying().(*types.Struct)
		if !ok {
			return "", nil, false, "a promoted method call through a non-struct type"
		}
		fields = append(fields, st.Field(idx))
		typ = st.Field(idx).Type()
	}
	for k := len(fields); k > 0; k-- {
		rt := fields[k-1].Type()
		if _, w := t.typeString(rt); w != "" {
			continue
		}
		if k < len(fields) {
			// The method, selected from there, is the one the call selects.
			if _, index, _ := types.LookupFieldOrMethod(rt, true, t.p.Types, m.Name()); !slices.Equal(index, path[k:]) {
				continue
			}
		}
		if fp, ok := t.visiblePath(xt, path[:k], fields[:k]); ok {
			return fp, rt, k < len(fields), ""
		}
	}
	// From the receiver expression itself.
	return "", xt, len(fields) > 0, ""
}

// visiblePath writes the selector suffix that selects fields (at index path
// from a value of type xt) without naming the unexported fields of other
// packages among them; false if it would select other fields.
func (t *transformer) visiblePath(xt types.Type, path []int, fields []*types.Var) (string, bool) {
	var b strings.Builder
	from, seg := xt, 0
	for j, f := range fields {
		if !f.Exported() && f.Pkg() != t.p.Types {
			continue // selected implicitly by the next named field
		}
		if _, index, _ := types.LookupFieldOrMethod(from, true, t.p.Types, f.Name()); !slices.Equal(index, path[seg:j+1]) {
			return "", false
		}
		b.WriteString("." + f.Name())
		from, seg = f.Type(), j+1
	}
	return b.String(), seg == len(fields)
}

// promotedAsOutcall reports whether the method at index (as
// types.Selection gives it), promoted into the observed type named from an
// external type it embeds by value, is treated as an outcall wherever
// observed code calls it, through an interface too (probe.Promoted), so
// that external code may be handed the value as an interface holding it
// (goldmark's parser passing a *Delimiter to ast.Node.InsertAfter, which
// calls the promoted AppendChild and sets the links of the embedded
// ast.BaseNode). The embedded value is then external state inside
// observed memory: external code reads and writes it natively in the
// capture, and observed code reaches it only through calls of its
// methods, each an outcall answered from the log in replay, where the
// external code does not run. That holds only if observed code cannot read
// the embedded value natively: every struct on the path belongs to a
// package outside the standard library (whose pure methods run natively:
// strings.Builder.String) and has no exported fields but the embedded ones
// on the path.
func (t *transformer) promotedAsOutcall(named types.Type, index []int) bool {
	typ := named
	for _, idx := range index[:len(index)-1] {
		if p, ok := typ.Underlying().(*types.Pointer); ok {
			typ = p.Elem()
		}
		st, ok := typ.Underlying().(*types.Struct)
		if !ok {
			return false
		}
		typ = st.Field(idx).Type()
		n, ok := types.Unalias(typ).(*types.Named)
		if !ok || n.Obj().Pkg() == nil {
			return false
		}
		path := n.Obj().Pkg().Path()
		if t.observed[path] {
			continue
		}
		if StandardPath(path) || purePackages[path] || pureMethodTypes[path+"."+n.Obj().Name()] {
			return false
		}
		est, ok := n.Underlying().(*types.Struct)
		if !ok {
			return false
		}
		for i := 0; i < est.NumFields(); i++ {
			if f := est.Field(i); f.Exported() && !f.Embedded() {
				return false
			}
		}
	}
	return true
}
