package transform

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Type identity of values from outside (docs/design/boundary-model.md, "Type
// identity"). Concrete types named in type assertions, type switches and
// errors.As targets are registered (registerType), so replay rebuilds values
// of those types as themselves. Interface types named there are registered as
// *asserted*; a value whose dynamic type replay cannot rebuild (an unexported
// type of another package) is then recorded with the asserted interfaces it
// implements, and replay stands in with a generated placeholder that
// implements exactly those besides its static interface type: so `s.(Sided)`,
// `case io.WriterTo:` and `errors.As(err, &tmp)` pick the same branch.

// maxAssertedCombos bounds the asserted interfaces whose every combination
// gets a placeholder per boundary interface type; beyond it only single ones
// do (docs/limitations.md).
const maxAssertedCombos = 4

// maxAnyCombos bounds the placeholders of the empty interface beyond
// maxAssertedCombos: combinations of up to maxAnyComboSize asserted
// interfaces, the smaller ones first, as many sizes whole as fit. Values
// in an `any` are where one value is asked for several roles
// (goldmark's util.PrioritizedValue holds parsers the code asserts to
// InlineParser, then to SetOptioner), and the empty interface adds no
// methods of its own, so these placeholders are few and small.
const (
	maxAnyComboSize = 3
	maxAnyCombos    = 64
)

// assertedIface registers typ if it is a non-empty interface type other than
// error that the generated file can name.
func (t *transformer) assertedIface(typ types.Type) {
	if typ == nil {
		return
	}
	iface, ok := typ.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 || types.Identical(typ, types.Universe.Lookup("error").Type()) {
		return
	}
	typ = t.nameableIface(typ)
	ts, why := t.typeString(typ)
	if why != "" {
		return
	}
	for _, a := range t.asserted {
		if types.Identical(a, typ) {
			return
		}
	}
	t.asserted = append(t.asserted, typ)
	fmt.Fprintf(&t.register, "\t%s.Asserted[%s]()\n", t.probe, ts)
}

// assertedPlaceholders generates, for every interface type with a
// placeholder, for the empty interface and for errors, the placeholders that
// also implement combinations of the asserted interfaces.
func (t *transformer) assertedPlaceholders() {
	if len(t.asserted) == 0 {
		return
	}
	var subsets [][]types.Type
	n := len(t.asserted)
	if n <= maxAssertedCombos {
		for m := 1; m < 1<<n; m++ {
			var sub []types.Type
			for i := 0; i < n; i++ {
				if m&(1<<i) != 0 {
					sub = append(sub, t.asserted[i])
				}
			}
			subsets = append(subsets, sub)
		}
	} else {
		for _, a := range t.asserted {
			subsets = append(subsets, []types.Type{a})
		}
	}
	statics := append([]types.Type{types.NewInterfaceType(nil, nil).Complete()}, t.phTypes...)
	for k, b := range statics {
		bi := b.Underlying().(*types.Interface)
		subs := subsets
		if k == 0 && n > maxAssertedCombos {
			subs = smallSubsets(t.asserted, maxAnyComboSize, maxAnyCombos)
		}
		if n > maxAssertedCombos {
			subs = append(slices.Clone(subs), t.realizedCombos(bi, subs)...)
		}
		for _, sub := range subs {
			if impliedAny(bi, sub) {
				continue // the same as a smaller combination
			}
			methods, ok := t.unionMethods(append([]types.Type{b}, sub...), nil)
			if !ok {
				continue
			}
			bs, why := t.typeString(b)
			if why != "" {
				continue
			}
			name := fmt.Sprintf("_capture_ph_%d", len(t.phs))
			t.phs[bs+" + "+typeList(sub)] = true
			fmt.Fprintf(&t.gen, "// %s stands in for a recorded %s that is also %s.\ntype %s struct{ _ byte }\n\n", name, bs, typeList(sub), name)
			t.gen.WriteString(t.placeholderMethods(name, methods))
			fmt.Fprintf(&t.register, "\t%s.PlaceholderCombo[%s](func() %s { return &%s{} })\n", t.probe, bs, bs, name)
		}
	}
	// Errors: a wrapper of replay's recorded error that adds the methods.
	provided := map[string]bool{"Error": true, "Unwrap": true, "Is": true}
	for i, sub := range subsets {
		methods, ok := t.unionMethods(sub, provided)
		if !ok {
			continue
		}
		name := fmt.Sprintf("_capture_phe_%d", i)
		fmt.Fprintf(&t.gen, "// %s stands in for a recorded error that is also %s.\ntype %s struct{ *%s.RecordedError }\n\n", name, typeList(sub), name, t.probe)
		t.gen.WriteString(t.placeholderMethods(name, methods))
		fmt.Fprintf(&t.register, "\t%s.ErrorStandIn(func(e *%s.RecordedError) error { return &%s{e} })\n", t.probe, t.probe, name)
	}
}

// maxRealizedCombos bounds the placeholders per static interface type that
// realizedCombos adds.
const maxRealizedCombos = 64

// realizedCombos lists, beyond the combinations have (generated anyway),
// the combinations of asserted interfaces that a named type of the
// packages the observed package imports, directly or not, implements
// besides static interface b, the asserted interfaces b implements left
// out (value.Implements leaves them out of the recorded list too). Beyond
// maxAssertedCombos not every combination gets a placeholder, but the
// values that cross are mostly of such types: net/http's unexported
// *response, in an http.ResponseWriter, is also an io.ReaderFrom, an
// http.Flusher and an http.Hijacker, which chi's middleware asserts
// together with four more interfaces; its placeholder must implement
// exactly those three. At most maxRealizedCombos, in the order of the
// packages' paths and their types' names.
func (t *transformer) realizedCombos(b *types.Interface, have [][]types.Type) [][]types.Type {
	seen := map[string]bool{}
	for _, sub := range have {
		seen[typeList(sub)] = true
	}
	var out [][]types.Type
	for _, x := range t.importedTypes() {
		if !types.Implements(x, b) {
			continue
		}
		var sub []types.Type
		for _, a := range t.asserted {
			ai := a.Underlying().(*types.Interface)
			if types.Implements(x, ai) && !types.Implements(b, ai) {
				sub = append(sub, a)
			}
		}
		if len(sub) < 2 || seen[typeList(sub)] {
			continue // none or one: the single ones are there
		}
		seen[typeList(sub)] = true
		out = append(out, sub)
		if len(out) == maxRealizedCombos {
			break
		}
	}
	return out
}

// importedTypes lists the named types, and pointers to them, declared at
// package level in the packages the observed package imports, directly or
// not, and in itself: the dynamic types values from outside may have.
// Generic types are left out. Computed once per package.
func (t *transformer) importedTypes() []types.Type {
	if t.imported != nil {
		return t.imported
	}
	t.imported = []types.Type{}
	pkgs := map[string]*types.Package{}
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		if pkgs[p.Path()] != nil {
			return
		}
		pkgs[p.Path()] = p
		for _, q := range p.Imports() {
			walk(q)
		}
	}
	walk(t.p.Types)
	paths := make([]string, 0, len(pkgs))
	for path := range pkgs {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		scope := pkgs[path].Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 {
				continue
			}
			switch named.Underlying().(type) {
			case *types.Interface:
				continue
			case *types.Pointer:
				t.imported = append(t.imported, named)
				continue
			}
			t.imported = append(t.imported, named, types.NewPointer(named))
		}
	}
	return t.imported
}

// smallSubsets lists the non-empty subsets of ts of at most maxSize
// elements, by size, stopping before the first size whose subsets would
// take the count past budget.
func smallSubsets(ts []types.Type, maxSize, budget int) [][]types.Type {
	var out [][]types.Type
	for size := 1; size <= maxSize && size <= len(ts); size++ {
		var level [][]types.Type
		var pick func(from int, cur []types.Type)
		pick = func(from int, cur []types.Type) {
			if len(cur) == size {
				level = append(level, slices.Clone(cur))
				return
			}
			for i := from; i < len(ts); i++ {
				pick(i+1, append(cur, ts[i]))
			}
		}
		pick(0, nil)
		if size > 1 && len(out)+len(level) > budget {
			break
		}
		out = append(out, level...)
	}
	return out
}

// impliedAny: b already has the methods of one of sub.
func impliedAny(b *types.Interface, sub []types.Type) bool {
	for _, a := range sub {
		if types.Implements(b, a.Underlying().(*types.Interface)) {
			return true
		}
	}
	return false
}

// unionMethods collects the methods of the interfaces, by name. It fails on
// two methods of one name with different signatures, on unexported methods
// of other packages, and on a method of skip whose signature is not the one
// the embedded *value.Error provides (a generated type cannot have both).
func (t *transformer) unionMethods(ifaces []types.Type, skip map[string]bool) ([]*types.Func, bool) {
	byName := map[string]*types.Func{}
	for _, it := range ifaces {
		iface := it.Underlying().(*types.Interface)
		for i := 0; i < iface.NumMethods(); i++ {
			m := iface.Method(i)
			if !m.Exported() && m.Pkg() != t.p.Types {
				return nil, false
			}
			if prev, ok := byName[m.Name()]; ok {
				if !types.Identical(prev.Type(), m.Type()) {
					return nil, false
				}
				continue
			}
			byName[m.Name()] = m
		}
	}
	var out []*types.Func
	for name, m := range byName {
		if skip[name] {
			if name != "Error" || m.Type().(*types.Signature).String() != "func() string" {
				return nil, false
			}
			continue
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, true
}

// placeholderMethods writes methods that are never run: observed code's
// calls of them are intercepted outcalls.
func (t *transformer) placeholderMethods(name string, methods []*types.Func) string {
	var b strings.Builder
	for _, m := range methods {
		sig := m.Type().(*types.Signature)
		var ps, rs []string
		for j := 0; j < sig.Params().Len(); j++ {
			pt, _ := t.typeString(sig.Params().At(j).Type())
			if sig.Variadic() && j == sig.Params().Len()-1 {
				pt = "..." + strings.TrimPrefix(pt, "[]")
			}
			ps = append(ps, pt)
		}
		for j := 0; j < sig.Results().Len(); j++ {
			rt, _ := t.typeString(sig.Results().At(j).Type())
			rs = append(rs, rt)
		}
		fmt.Fprintf(&b, "func (*%s) %s(%s) %s { panic(%s.PlaceholderCalled) }\n", name, m.Name(), strings.Join(ps, ", "), resultList(rs), t.probe)
	}
	b.WriteString("\n")
	return b.String()
}

func typeList(ts []types.Type) string {
	var s []string
	for _, x := range ts {
		s = append(s, types.TypeString(x, fullQualifier))
	}
	return strings.Join(s, ", ")
}

// promoted registers the exported methods that named (an observed type)
// gets from an external type embedded through a pointer or an interface:
// they run external code on external state, so an interface call of one is
// an outcall even though the dynamic type is observed. A method promoted
// from an external type embedded by value works on observed memory; it
// runs natively, unless that embedded value is external state only
// external code touches (promotedAsOutcall).
func (t *transformer) promoted(named *types.Named, ts string) {
	var names []string
	ms := types.NewMethodSet(types.NewPointer(named))
	for i := 0; i < ms.Len(); i++ {
		sel := ms.At(i)
		fn := sel.Obj()
		if len(sel.Index()) < 2 || !fn.Exported() || fn.Pkg() == nil || t.observed[fn.Pkg().Path()] {
			continue
		}
		if promotedByValue(named, sel.Index()) && !t.promotedAsOutcall(named, sel.Index()) {
			continue
		}
		names = append(names, strconv.Quote(fn.Name()))
	}
	if len(names) > 0 {
		fmt.Fprintf(&t.register, "\t%s.Promoted[%s](%s)\n", t.probe, ts, strings.Join(names, ", "))
	}
}

// promotedByValue: every embedded field on the path to a promoted method
// (index, as types.Selection gives it) is held by value.
func promotedByValue(typ types.Type, index []int) bool {
	for _, idx := range index[:len(index)-1] {
		if p, ok := typ.Underlying().(*types.Pointer); ok {
			typ = p.Elem()
		}
		st, ok := typ.Underlying().(*types.Struct)
		if !ok {
			return false
		}
		typ = st.Field(idx).Type()
		switch typ.Underlying().(type) {
		case *types.Pointer, *types.Interface:
			return false
		}
	}
	return true
}

// promotedCallbacks rejects an observed value passed to an outcall as an
// interface whose methods include one promoted from an external type the
// value embeds by value: external code would call it on observed memory
// without a record, and replay, which does not run the external code,
// would leave that memory as it was.
func (t *transformer) promotedCallbacks(call *ast.CallExpr, sig *types.Signature, name string) bool {
	n := sig.Params().Len()
	for i, arg := range call.Args {
		var pt types.Type
		switch {
		case sig.Variadic() && i >= n-1 && !call.Ellipsis.IsValid():
			pt = sig.Params().At(n - 1).Type().(*types.Slice).Elem()
		case i < n:
			pt = sig.Params().At(i).Type()
		default:
			continue
		}
		iface, ok := pt.Underlying().(*types.Interface)
		if !ok {
			continue
		}
		at := t.p.Info.TypeOf(arg)
		base := at
		if p, ok := at.Underlying().(*types.Pointer); ok {
			base = p.Elem()
		}
		named, ok := types.Unalias(base).(*types.Named)
		if !ok || named.Obj().Pkg() == nil || !t.observed[named.Obj().Pkg().Path()] {
			continue
		}
		ms := types.NewMethodSet(at)
		for j := 0; j < iface.NumMethods(); j++ {
			m := iface.Method(j)
			sel := ms.Lookup(m.Pkg(), m.Name())
			if sel == nil || len(sel.Index()) < 2 || t.observed[sel.Obj().Pkg().Path()] || !promotedByValue(named, sel.Index()) || t.promotedAsOutcall(named, sel.Index()) {
				continue
			}
			recv := sel.Obj().Type().(*types.Signature).Recv().Type()
			t.errorf(arg.Pos(), fmt.Sprintf("passing %s to %s as %s, whose method %s is promoted from the embedded external type %s",
				types.TypeString(at, fullQualifier), name, types.TypeString(pt, fullQualifier), m.Name(), types.TypeString(recv, fullQualifier)),
				fmt.Sprintf("define %s on %s explicitly, forwarding to the embedded field, so that external code's calls of it are recorded (an exported method of the observed set records its incalls)", m.Name(), named.Obj().Name()))
			return false
		}
	}
	return true
}

// nameableIface is typ, or for an interface type declared inside a function
// (pkg/errors' `type causer interface{ Cause() error }` in Cause), which the
// generated file cannot name, its interface literal: a value of the local
// type is assignable to it (identical underlying types, one of them
// unnamed), a placeholder implementing the literal implements the local
// type, and the methods called through it are the same.
func (t *transformer) nameableIface(typ types.Type) types.Type {
	n, ok := types.Unalias(typ).(*types.Named)
	if !ok || n.TypeArgs().Len() > 0 {
		return typ
	}
	obj := n.Obj()
	if obj.Pkg() != t.p.Types || obj.Parent() == nil || obj.Parent() == t.p.Types.Scope() {
		return typ
	}
	if _, isIface := n.Underlying().(*types.Interface); !isIface {
		return typ
	}
	return n.Underlying()
}
