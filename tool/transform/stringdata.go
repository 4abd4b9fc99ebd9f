package transform

import (
	"fmt"
	"go/ast"
	"go/types"
)

// Marks of the strings whose memory the observed code takes
// (runtime/probe/stringmem.go). A slice crosses the boundary as a view of
// its backing array, by the array's identity, while a string crosses by
// value, without the identity of its memory: where the code makes a slice
// over a string's bytes (goldmark's util.StringToReadOnlyBytes,
// `unsafe.Slice(unsafe.StringData(s), len(s))`; gjson's stringBytes, which
// reads the string's header through `unsafe.Pointer(&s)`), two calls with
// one string literal give views of one array in the capture and of two in
// replay, which decodes the string anew each time. So the code marks the
// string where it takes its memory, in capture and replay alike, and a
// slice over a marked string's memory crosses by value.

// stringMemory marks the string whose memory call takes: the argument of
// unsafe.StringData, or the string a conversion of its address to
// unsafe.Pointer points to.
func (t *transformer) stringMemory(call *ast.CallExpr) {
	if len(call.Args) != 1 {
		return
	}
	info := t.p.Info
	tv, ok := info.Types[call.Fun]
	if !ok {
		return
	}
	arg := call.Args[0]
	switch {
	case tv.IsBuiltin():
		var id *ast.Ident
		switch fun := ast.Unparen(call.Fun).(type) {
		case *ast.SelectorExpr:
			id = fun.Sel
		case *ast.Ident:
			id = fun
		}
		if id == nil {
			return
		}
		if b, ok := info.Uses[id].(*types.Builtin); !ok || b.Name() != "StringData" {
			return
		}
		span := int(arg.End() - arg.Pos())
		t.add(arg.Pos(), arg.Pos(), t.stringMemHelper()+"(", span)
		t.add(arg.End(), arg.End(), ")", span)
	case tv.IsType():
		if !types.Identical(tv.Type, types.Typ[types.UnsafePointer]) {
			return
		}
		ptr, ok := info.TypeOf(arg).Underlying().(*types.Pointer)
		if !ok {
			return
		}
		if b, ok := ptr.Elem().Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
			return
		}
		span := int(call.End() - call.Pos())
		t.add(call.Pos(), call.Pos(), t.stringAtHelper()+"(", span)
		t.add(call.End(), call.End(), ")", span)
	}
}

// stringMemHelper is the name of the generated function that marks a
// string and returns it.
func (t *transformer) stringMemHelper() string {
	if !t.strMem.mem {
		t.strMem.mem = true
		fmt.Fprintf(&t.gen, `// _capture_string_mem marks the memory of s, which the observed code takes:
// a slice over it crosses the boundary by value.
func _capture_string_mem(s string) string {
	return %s.StringMem(s)
}

`, t.probe)
	}
	return "_capture_string_mem"
}

// stringAtHelper is the name of the generated function that marks the
// string an unsafe.Pointer points to and returns the pointer.
func (t *transformer) stringAtHelper() string {
	if !t.strMem.at {
		t.strMem.at = true
		u := t.alias("unsafe", "unsafe")
		fmt.Fprintf(&t.gen, `// _capture_string_at marks the memory of the string p points to, whose
// header the observed code reads: a slice over it crosses the boundary by
// value.
func _capture_string_at(p %s.Pointer) %s.Pointer {
	return %s.StringAt(p)
}

`, u, u, t.probe)
	}
	return "_capture_string_at"
}

// stringDataView returns the first call in fd's body that takes the memory
// of a string as a pointer to its bytes (unsafe.StringData), or nil.
//
// An exported function that returns a slice and does so (goldmark's
// util.StringToReadOnlyBytes: unsafe.Slice(unsafe.StringData(s), len(s)))
// hands out a view of a string's memory. A slice crosses the boundary as a
// view of its backing array, by the array's identity, while a string
// crosses by value, without the identity of its memory: two calls with one
// string literal return views of one array in the capture, and of two
// copies in replay, which decodes the argument anew each time. Marking the
// string (above) makes the result cross by value, but external code then
// holds views of the string's memory and passes them back in: the capture,
// which sees the marked memory, writes such an argument by value, and
// replay, which decoded the earlier result into an array of its own, as a
// view (goldmark's bytesFilter.Contains given "style"). So the transform
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
