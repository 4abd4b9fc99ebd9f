package transform

import (
	"fmt"
	"go/types"
	"strings"
)

// registerSignature registers the concrete types of a boundary signature,
// so that replay can rebuild interface contents of those types.
func (t *transformer) registerSignature(sig *types.Signature) {
	for _, tup := range []*types.Tuple{sig.Params(), sig.Results()} {
		for i := 0; i < tup.Len(); i++ {
			typ := tup.At(i).Type()
			if sig.Variadic() && tup == sig.Params() && i == tup.Len()-1 {
				typ = typ.(*types.Slice).Elem()
			}
			t.placeholder(typ)
			if _, ok := types.Unalias(typ).(*types.Named); ok {
				t.registerType(typ)
			}
			if p, ok := typ.(*types.Pointer); ok {
				if _, ok := types.Unalias(p.Elem()).(*types.Named); ok {
					t.registerType(typ)
				}
			}
		}
	}
}

// placeholder generates, for a non-empty interface type at the boundary, a
// type that stands in for recorded values of it in replay: every call of its
// methods by observed code goes through an outcall helper and is answered
// from the log, so its methods are never run.
func (t *transformer) placeholder(typ types.Type) {
	iface, ok := typ.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 || types.Identical(typ, types.Universe.Lookup("error").Type()) || hasTypeParam(typ) {
		return
	}
	ts, why := t.typeString(typ)
	if why != "" || t.phs[ts] {
		return
	}
	var methods strings.Builder
	name := fmt.Sprintf("_capture_ph_%d", len(t.phs))
	// An interface with an unexported method of another package (testing.TB's
	// private) has no implementation outside that package but one that
	// embeds it: the stand-in embeds the interface (nil) and gets that
	// method promoted; its exported methods it declares itself.
	embed := ""
	for i := 0; i < iface.NumMethods(); i++ {
		if m := iface.Method(i); !m.Exported() && m.Pkg() != t.p.Types {
			named, ok := types.Unalias(typ).(*types.Named)
			if !ok {
				return // an unnamed interface cannot be embedded
			}
			embed = named.Obj().Name()
		}
	}
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		if !m.Exported() && m.Pkg() != t.p.Types {
			continue
		}
		if m.Name() == embed {
			return // a method of the embedded field's name
		}
		sig := m.Type().(*types.Signature)
		var ps, rs []string
		for j := 0; j < sig.Params().Len(); j++ {
			pt, why := t.typeString(sig.Params().At(j).Type())
			if why != "" {
				return
			}
			if sig.Variadic() && j == sig.Params().Len()-1 {
				pt = "..." + strings.TrimPrefix(pt, "[]")
			}
			ps = append(ps, pt)
		}
		for j := 0; j < sig.Results().Len(); j++ {
			rt, why := t.typeString(sig.Results().At(j).Type())
			if why != "" {
				return
			}
			rs = append(rs, rt)
		}
		fmt.Fprintf(&methods, "func (*%s) %s(%s) %s { panic(%s.PlaceholderCalled) }\n", name, m.Name(), strings.Join(ps, ", "), resultList(rs), t.probe)
	}
	t.phs[ts] = true
	t.phTypes = append(t.phTypes, typ)
	fields := "_ byte"
	if embed != "" {
		fields = ts
	}
	fmt.Fprintf(&t.gen, "// %s stands in for a recorded %s in replay.\ntype %s struct{ %s }\n\n%s\n", name, ts, name, fields, methods.String())
	fmt.Fprintf(&t.register, "\t%s.Placeholder[%s](func() %s { return &%s{} })\n", t.probe, ts, ts, name)
}
