package transform

import (
	"go/ast"
	"go/types"
)

// stringDataView returns the first call in fd's body that takes the memory
// of a string as a pointer to its bytes (unsafe.StringData), or nil.
//
// An exported function that returns a slice and does so (goldmark's
// util.StringToReadOnlyBytes: unsafe.Slice(unsafe.StringData(s), len(s)))
// hands out a view of a string's memory. A slice crosses the boundary as a
// view of its backing array, by the array's identity, while a string
// crosses by value, without the identity of its memory: two calls with one
// string literal return views of one array in the capture, and of two
// copies in replay, which decodes the argument anew each time. Replay
// cannot give the result the array the capture saw, so the transform
// rejects the function rather than let it diverge.
func (t *transformer) stringDataView(fd *ast.FuncDecl) ast.Node {
	if fd.Body == nil {
		return nil
	}
	var at ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if at != nil {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		var id *ast.Ident
		switch fun := ast.Unparen(call.Fun).(type) {
		case *ast.SelectorExpr:
			id = fun.Sel
		case *ast.Ident:
			id = fun
		}
		if id == nil {
			return true
		}
		if b, ok := t.p.Info.Uses[id].(*types.Builtin); ok && b.Name() == "StringData" {
			at = call
		}
		return true
	})
	return at
}
