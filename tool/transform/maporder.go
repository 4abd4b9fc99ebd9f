package transform

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// rangeMap makes `for k, v := range m` iterate in key order when m's keys
// are ordered (integers, strings) and the loop body can make boundary
// events: Go randomises map iteration order, so the body's outcalls would
// come in another order in replay than in the capture.
// Capture and replay run the same instrumented source, so both iterate in
// the same order for the same map. The range expression is wrapped,
//
//	for k, v := range m   ->   for k, v := range _capture_sorted(m)
//
// (a range over the iterator probe.SortedMap returns), which keeps break,
// continue, return and labels as they were. Loops that cannot cross the
// boundary stay native: sorting costs an allocation and O(n log n).
func (t *transformer) rangeMap(x *ast.RangeStmt) {
	mt, ok := t.p.Info.TypeOf(x.X).Underlying().(*types.Map)
	if !ok || !t.mayCross(x.Body) {
		return
	}
	if _, isTP := mt.Key().(*types.TypeParam); isTP {
		// Whether the keys sort is known at run time only (golang-lru's
		// LRU[K comparable, V any]).
		if !t.sortedOfHelper {
			t.sortedOfHelper = true
			fmt.Fprintf(&t.gen, `// _capture_sorted_tp ranges over a map whose key type is a type parameter
// in key order when the keys are integers or strings, in the capture and in
// replay alike, for loops whose bodies make boundary events.
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
