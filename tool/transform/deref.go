package transform

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// derefRead routes a read of the whole pointee of a pointer to an external
// struct (`*n` after `_, n, _ := net.ParseCIDR(s)`) through a helper that
// records READ_OUT, as fieldRead does for one field: in replay the pointer
// is a placeholder whose contents mean nothing (pflag's `ipNetValue(*n)`;
// TestFieldReadUnderDereference).
func (t *transformer) derefRead(x *ast.StarExpr, parent ast.Node, stack []ast.Node) {
	if tv, ok := t.p.Info.Types[x]; !ok || !tv.IsValue() {
		return // a pointer type, not a dereference
	}
	xt := t.p.Info.TypeOf(x.X)
	ptr, ok := xt.Underlying().(*types.Pointer)
	if !ok || hasTypeParam(xt) {
		return
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || t.observed[named.Obj().Pkg().Path()] || memoryHeader(named) {
		return
	}
	if _, isStruct := named.Underlying().(*types.Struct); !isStruct {
		return
	}
	if pureMethodTypes[named.Obj().Pkg().Path()+"."+named.Obj().Name()] || strings.HasPrefix(named.Obj().Pkg().Path(), "sync") {
		return // values the observed code holds itself (a bytes.Buffer), never copied from outside
	}
	if _, sel := parent.(*ast.SelectorExpr); sel {
		return // (*p).f, (*p).M(): a field read or a method call, handled as such
	}
	if !t.readContext(x, stack) {
		return
	}
	rts, why := t.typeString(xt)
	if why != "" {
		return
	}
	ets, why := t.typeString(ptr.Elem())
	if why != "" {
		return
	}
	name := "*(" + types.TypeString(xt, fullQualifier) + ")"
	pos := t.sitePos(x.Pos())
	site := t.siteVar(name, pos, false)
	h := strings.Replace(site, "_site_", "_deref_", 1)
	fmt.Fprintf(&t.gen, `// %s reads %s (%s).
func %s(_r %s) %s {
	s := %s.Out(&%s)
	if s == nil {
		return *_r
	}
	if s.Replaying() {
		s.Read()
		v := %s
		s.ReadDone()
		return v
	}
	v := *_r
	s.Reading()
	%s
	s.Read()
	return v
}

`, h, name, pos, h, rts, ets, t.probe, site, t.decExpr(ptr.Elem(), ets), t.encStmt("v", ptr.Elem()))
	span := int(x.End() - x.Pos())
	t.add(x.Pos(), x.X.Pos(), h+"(", span)
	t.add(x.End(), x.End(), ")", span)
}
