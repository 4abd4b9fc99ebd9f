package transform

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// rangeMap makes `for k, v := range m` iterate in key order when m's keys
// are ordered (integers, strings; interface keys whose values are, decided
// at run time) and the order can be seen: the loop body can make boundary
// events, or the order leaves the loop (orderEscapes). Go randomises map
// iteration order, so the body's outcalls would come in another order in
// replay than in the capture, and so would a slice of the keys the code
// returns (gods' hashmap.Keys).
// Capture and replay run the same instrumented source, so both iterate in
// the same order for the same map. The range expression is wrapped,
//
//	for k, v := range m   ->   for k, v := range _capture_sorted(m)
//
// (a range over the iterator probe.SortedMap returns), which keeps break,
// continue, return and labels as they were. Loops whose order nothing can
// see stay native: sorting costs an allocation and O(n log n).
func (t *transformer) rangeMap(x *ast.RangeStmt) {
	mt, ok := t.p.Info.TypeOf(x.X).Underlying().(*types.Map)
	if !ok || !(t.mayCross(x.Body) || t.orderEscapes(x)) {
		return
	}
	if t.langBefore("go1.23") {
		t.rangeMapStepped(x, mt)
		return
	}
	if dynamicKey(mt.Key()) {
		// Whether the keys sort is known at run time only (golang-lru's
		// LRU[K comparable, V any], gods' map[interface{}]interface{}).
		if !t.sortedOfHelper {
			t.sortedOfHelper = true
			fmt.Fprintf(&t.gen, `// _capture_sorted_tp ranges over a map whose key type is a type parameter
// or an interface in key order when the keys are integers or strings, in
// the capture and in replay alike, for loops whose order can be seen.
func _capture_sorted_tp[M ~map[K]V, K comparable, V any](m M) func(yield func(K, V) bool) {
	return %s.SortedMapOf(m)
}

`, t.probe)
		}
		span := int(x.X.End() - x.X.Pos())
		t.add(x.X.Pos(), x.X.Pos(), "_capture_sorted_tp(", span)
		t.add(x.X.End(), x.X.End(), ")", span)
		return
	}
	if !orderedKey(mt.Key()) {
		return
	}
	if !t.sortedHelper {
		t.sortedHelper = true
		fmt.Fprintf(&t.gen, `// _capture_sorted ranges over a map in key order, in the capture and in
// replay alike, for loops whose bodies make boundary events.
func _capture_sorted[M ~map[K]V, K %s.Ordered, V any](m M) func(yield func(K, V) bool) {
	return %s.SortedMap(m)
}

`, t.probe, t.probe)
	}
	span := int(x.X.End() - x.X.Pos())
	t.add(x.X.Pos(), x.X.Pos(), "_capture_sorted(", span)
	t.add(x.X.End(), x.X.End(), ")", span)
}

// dynamicKey: a key type whose values may or may not sort, known at run
// time only: a type parameter, or an interface (probe.SortedMapOf sorts
// keys whose dynamic values are all integers, floats, strings or booleans).
func dynamicKey(k types.Type) bool {
	if _, isTP := k.(*types.TypeParam); isTP {
		return true
	}
	_, isIface := k.Underlying().(*types.Interface)
	// reflect.Value keys sort by the values they refer to
	// (probe.SortedMapOf): mapstructure's map[reflect.Value]struct{}.
	return isIface || isReflectValue(k)
}

// orderEscapes reports whether the order of a map range that makes no
// boundary event can still be seen after the loop: its body writes
// something declared outside the loop (`keys[i] = k`, `n++`, `s += v`,
// whose float sum depends on the order too), or leaves the loop early
// (return, break, goto, a labelled continue: which entry came first), or
// its range variables are declared outside it (they keep the last entry).
// Such loops iterate in key order as crossing ones do, or a slice of keys
// the code returns would differ between the capture and replay.
func (t *transformer) orderEscapes(x *ast.RangeStmt) bool {
	if x.Tok == token.ASSIGN {
		for _, e := range []ast.Expr{x.Key, x.Value} {
			if id, ok := e.(*ast.Ident); e != nil && !(ok && id.Name == "_") {
				return true
			}
		}
	}
	outside := func(lhs ast.Expr) bool {
		id, ok := ast.Unparen(lhs).(*ast.Ident)
		if !ok {
			return true // through an index, a field or a pointer: memory the loop may not own
		}
		if id.Name == "_" {
			return false
		}
		obj := t.p.Info.ObjectOf(id)
		return obj == nil || obj.Pos() < x.Pos() || obj.Pos() >= x.End()
	}
	found := false
	ast.Inspect(x.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch s := n.(type) {
		case *ast.FuncLit:
			return false // its returns are its own; calling it is a call (mayCross)
		case *ast.AssignStmt:
			if s.Tok != token.DEFINE {
				for _, lhs := range s.Lhs {
					found = found || outside(lhs)
				}
			}
		case *ast.IncDecStmt:
			found = outside(s.X)
		case *ast.ReturnStmt:
			found = true
		case *ast.BranchStmt:
			found = s.Tok == token.BREAK || s.Tok == token.GOTO || s.Label != nil
		}
		return !found
	})
	return found
}

// orderedKey: keys that sort the same way in every process (not floats:
// a NaN key cannot be looked up again; not pointers, whose order is the
// heap's).
func orderedKey(k types.Type) bool {
	b, ok := k.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsString) != 0
}

// mayCross reports whether body can make a boundary event: it calls
// something (a function of the observed set may make outcalls), operates on
// a channel, starts a goroutine, or selects a field or variable of another
// package (reads and writes of external state are events).
func (t *transformer) mayCross(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.CallExpr:
			tv, ok := t.p.Info.Types[x.Fun]
			if !ok || !(tv.IsType() || tv.IsBuiltin()) {
				found = true
			} else if id, isID := ast.Unparen(x.Fun).(*ast.Ident); isID && tv.IsBuiltin() && id.Name == "close" {
				found = true
			}
		case *ast.GoStmt, *ast.SendStmt, *ast.SelectStmt:
			found = true
		case *ast.UnaryExpr:
			found = x.Op == token.ARROW
		case *ast.RangeStmt:
			_, isChan := t.p.Info.TypeOf(x.X).Underlying().(*types.Chan)
			found = isChan
		case *ast.SelectorExpr:
			var obj types.Object
			if sel, ok := t.p.Info.Selections[x]; ok {
				if sel.Kind() == types.FieldVal {
					obj = sel.Obj()
				}
			} else if v, ok := t.p.Info.Uses[x.Sel].(*types.Var); ok {
				obj = v
			}
			found = obj != nil && obj.Pkg() != nil && !t.observed[obj.Pkg().Path()]
		}
		return !found
	})
	return found
}

// rangeMapStepped is rangeMap for a file whose language version is older
// than go1.23, which cannot range over a function: the loop becomes a
// three-clause for statement stepping a probe.MapIter (its doc says why
// that keeps range's semantics),
//
//	for k, v := range m   ->   for _capture_it, k, v := _capture_iter(m); _capture_it.Next(&k, &v); {
//	for k = range m       ->   for _capture_it, _, _ := _capture_iter(m); _capture_it.Next(&k, nil); {
//
// A blank or missing variable is not stored (nil). _capture_iter is generic
// from go1.18; before, the file cannot call a generic function, and each
// loop gets a helper of its own that spells the map's type (the generated
// file, raised to genLang, may use generics; the loop only calls it and
// the iterator's method). Loops left native, in the documented order
// Go gives them: a range assigning to something other than a variable
// (&a[i] would be evaluated once more after the last entry; a map element
// has no address), and before go1.18 a map whose type the generated file
// cannot spell.
func (t *transformer) rangeMapStepped(x *ast.RangeStmt, mt *types.Map) {
	var names, ptrs [2]string
	for i, e := range []ast.Expr{x.Key, x.Value} {
		names[i], ptrs[i] = "_", "nil"
		if e == nil {
			continue
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return
		}
		if id.Name != "_" {
			names[i], ptrs[i] = id.Name, "&"+id.Name
		}
	}
	isTP := dynamicKey(mt.Key())
	if !isTP && !orderedKey(mt.Key()) {
		return // no order to sort by: native, as from go1.23
	}
	var h string
	switch {
	case !t.langBefore("go1.18") && isTP:
		h = "_capture_iter_tp"
		if !t.iterOfHelper {
			t.iterOfHelper = true
			fmt.Fprintf(&t.gen, `// _capture_iter_tp steps through a map whose key type is a type parameter
// or an interface in key order when the keys are integers or strings, in
// the capture and in replay alike, for loops whose order can be seen, in
// files whose language version cannot range over functions.
func _capture_iter_tp[M ~map[K]V, K comparable, V any](m M) (it *%s.MapIter[K, V], k K, v V) {
	return %s.MapIterOf(m), k, v
}

`, t.probe, t.probe)
		}
	case !t.langBefore("go1.18"):
		h = "_capture_iter"
		if !t.iterHelper {
			t.iterHelper = true
			fmt.Fprintf(&t.gen, `// _capture_iter steps through a map in key order, in the capture and in
// replay alike, for loops whose bodies make boundary events, in files whose
// language version cannot range over functions.
func _capture_iter[M ~map[K]V, K %s.Ordered, V any](m M) (it *%s.MapIter[K, V], k K, v V) {
	return %s.SortedMapIter(m), k, v
}

`, t.probe, t.probe, t.probe)
		}
	default:
		// No type parameters exist before go1.18.
		ms, why := t.typeString(t.p.Info.TypeOf(x.X))
		ks, whyK := t.typeString(mt.Key())
		vs, whyV := t.typeString(mt.Elem())
		if why != "" || whyK != "" || whyV != "" {
			return
		}
		h = fmt.Sprintf("_capture_iter_%d", t.nsite)
		t.nsite++
		iter := "SortedMapIter"
		if isTP {
			iter = "MapIterOf" // interface keys: sorted when their values are
		}
		fmt.Fprintf(&t.gen, `// %s steps through the map of the range at %s in key order, in the
// capture and in replay alike: its order can be seen, and its file's
// language version has no generics.
func %s(m %s) (it *%s.MapIter[%s, %s], k %s, v %s) {
	return %s.%s(m), k, v
}

`, h, t.sitePos(x.For), h, ms, t.probe, ks, vs, ks, vs, t.probe, iter)
	}
	start := x.Range
	if x.Key != nil {
		start = x.Key.Pos()
	}
	decl := "_capture_it, " + names[0] + ", " + names[1]
	if x.Tok == token.ASSIGN {
		decl = "_capture_it, _, _"
	}
	t.add(start, x.X.Pos(), decl+" := "+h+"(", int(x.X.End()-start))
	// After whatever closes inside the range expression at its end.
	t.add(x.X.End(), x.X.End(), "); _capture_it.Next("+ptrs[0]+", "+ptrs[1]+");", 0)
}

// reflectMapKeys makes `v.MapKeys()` (v a reflect.Value) return the keys
// in key order when they are integers or strings: MapKeys returns them in
// Go's randomised map order, and code that reflects over a map walks them
// in that order, making its boundary events in another order in replay
// than in the capture (go-spew sorts the keys with sort.Sort, an outcall
// whose Less and Swap callbacks name key indices of that order). As for
// rangeMap, capture and replay run the same instrumented source, so both
// get the same order; the spec leaves the order unspecified, so any order
// keeps the program's meaning.
//
//	v.MapKeys()   ->   _capture_mapkeys(v)
func (t *transformer) reflectMapKeys(call *ast.CallExpr) {
	sx, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sx.Sel.Name != "MapKeys" || len(call.Args) != 0 {
		return
	}
	sel, ok := t.p.Info.Selections[sx]
	if !ok || sel.Kind() != types.MethodVal || !isReflectValue(sel.Recv()) {
		return
	}
	if !t.mapKeysHelper {
		t.mapKeysHelper = true
		r := t.alias("reflect", "reflect")
		fmt.Fprintf(&t.gen, `// _capture_mapkeys returns the keys of map value v in key order when they
// are integers or strings, in the capture and in replay alike.
func _capture_mapkeys(v %s.Value) []%s.Value {
	return %s.SortedMapKeys(v)
}

`, r, r, t.probe)
	}
	span := int(call.End() - call.Pos())
	t.add(sx.X.Pos(), sx.X.Pos(), "_capture_mapkeys(", span)
	t.add(sx.X.End(), call.End(), ")", span)
}

// isReflectValue: reflect.Value, or a pointer to it.
func isReflectValue(typ types.Type) bool {
	if p, ok := typ.(*types.Pointer); ok {
		typ = p.Elem()
	}
	n, ok := types.Unalias(typ).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "reflect" && n.Obj().Name() == "Value"
}

// reflectMapRange makes `it := v.MapRange()` (v a reflect.Value) iterate
// in key order, as reflectMapKeys does for MapKeys: go-toml's encoder walks
// a map with MapRange and calls MarshalText on each key, outcalls whose
// order would be Go's randomised one. reflect.MapIter's order cannot be
// chosen, so the iterator becomes probe's stand-in, of another type:
//
//	it := v.MapRange()    ->   it := _capture_maprange(v)
//	k.SetIterKey(it)      ->   _capture_setiterkey(k, it)
//
// That is done only where the new type is invisible: the result is
// declared into a variable of its own whose every use is a call of its
// Next, Key, Value or Reset method or the argument of a SetIterKey or
// SetIterValue call on a reflect.Value. An iterator that goes anywhere else
// (a field, another variable, a call) stays reflect's: its order is the
// map's own, the documented limitation.
func (t *transformer) reflectMapRange(call *ast.CallExpr, stack []ast.Node) {
	sx, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sx.Sel.Name != "MapRange" || len(call.Args) != 0 {
		return
	}
	sel, ok := t.p.Info.Selections[sx]
	if !ok || sel.Kind() != types.MethodVal || !isReflectValue(sel.Recv()) {
		return
	}
	// it := v.MapRange(), it a new variable.
	if len(stack) < 2 {
		return
	}
	as, ok := stack[len(stack)-2].(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Rhs[0] != call {
		return
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return
	}
	obj := t.p.Info.Defs[id]
	if obj == nil {
		return
	}
	// The outermost function holding the statement holds every use.
	var body ast.Node
	for _, n := range stack {
		if fd, ok := n.(*ast.FuncDecl); ok {
			body = fd.Body
			break
		}
		if fl, ok := n.(*ast.FuncLit); ok {
			body = fl.Body
			break
		}
	}
	if body == nil {
		return
	}
	var setters []*ast.CallExpr
	usable := true
	var uses []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if !usable {
			return false
		}
		if n == nil {
			uses = uses[:len(uses)-1]
			return false
		}
		u, ok := n.(*ast.Ident)
		if !ok || t.p.Info.Uses[u] != obj {
			uses = append(uses, n)
			return true
		}
		// A use (not pushed: returning false, Inspect calls no f(nil)).
		if len(uses) < 2 {
			usable = false
			return false
		}
		switch p := uses[len(uses)-1].(type) {
		case *ast.SelectorExpr: // it.Next()
			c, ok := uses[len(uses)-2].(*ast.CallExpr)
			if !ok || c.Fun != p || p.X != u {
				usable = false
				return false
			}
			switch p.Sel.Name {
			case "Next", "Key", "Value", "Reset":
			default:
				usable = false
			}
		case *ast.CallExpr: // k.SetIterKey(it)
			fx, ok := ast.Unparen(p.Fun).(*ast.SelectorExpr)
			if !ok || len(p.Args) != 1 || p.Args[0] != u || (fx.Sel.Name != "SetIterKey" && fx.Sel.Name != "SetIterValue") {
				usable = false
				return false
			}
			s, ok := t.p.Info.Selections[fx]
			if !ok || s.Kind() != types.MethodVal || !isReflectValue(s.Recv()) {
				usable = false
				return false
			}
			if _, ptr := s.Recv().(*types.Pointer); ptr { // the helpers take a reflect.Value
				usable = false
				return false
			}
			setters = append(setters, p)
		default:
			usable = false
		}
		return false
	})
	if !usable {
		return
	}
	r := t.alias("reflect", "reflect")
	if !t.mapRangeHelper {
		t.mapRangeHelper = true
		fmt.Fprintf(&t.gen, `// _capture_maprange is v.MapRange() iterating in key order where the keys
// have one, in the capture and in replay alike.
func _capture_maprange(v %s.Value) *%s.ReflectMapIter {
	return %s.MapRangeOf(v)
}

// _capture_setiterkey is k.SetIterKey(it) for _capture_maprange's iterator.
func _capture_setiterkey(k %s.Value, it *%s.ReflectMapIter) {
	%s.SetIterKey(k, it)
}

// _capture_setitervalue is v.SetIterValue(it) for _capture_maprange's
// iterator.
func _capture_setitervalue(v %s.Value, it *%s.ReflectMapIter) {
	%s.SetIterValue(v, it)
}

`, r, t.probe, t.probe, r, t.probe, t.probe, r, t.probe, t.probe)
	}
	span := int(call.End() - call.Pos())
	t.add(sx.X.Pos(), sx.X.Pos(), "_capture_maprange(", span)
	t.add(sx.X.End(), call.End(), ")", span)
	for _, c := range setters {
		fx := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		helper := "_capture_setiterkey("
		if fx.Sel.Name == "SetIterValue" {
			helper = "_capture_setitervalue("
		}
		span := int(c.End() - c.Pos())
		t.add(fx.X.Pos(), fx.X.Pos(), helper, span)
		t.add(fx.X.End(), c.Args[0].Pos(), ", ", span)
	}
}
