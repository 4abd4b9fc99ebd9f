package transform

import (
	"fmt"
	"go/ast"
	"go/types"
)

// Owned addresses the transform cannot follow (docs/design/boundary-model.md,
// "Out-parameters"): an address the observed code owns (ownedAddr: `&buf`,
// `new(T)`, `&T{}`) passed to a parameter of one of its own functions whose
// other callers may pass addresses from outside — an exported function or
// method (bitset's `b.WriteTo(&buf)` in MarshalBinary, `WriteTo(stream
// io.Writer)` being exported), or an unexported one that is also given
// other values (spew's `fdump(c, &buf, a...)`, whose `w` Fdump gives the
// caller's writer and Dump os.Stdout). Where the parameter reaches an
// outcall (`binary.Write(stream, ...)`, `d.w.Write(b)` through a struct
// field) the transform cannot tell an owned address from one that came
// from outside, so it is decided at run time: the call marks the address
// (probe.Own), and every outcall whose receiver or argument may carry one
// records the pointee after the call when the value it gets is a marked
// address (probe.OutPointeeIfOwned), which replay writes back
// (probe.SetOutPointeeIfOwned). The observed code makes the marks in replay
// too, so both agree on which outcalls the log holds a pointee for.

// ownsState: what owned.go keeps per package.
type ownsState struct {
	helper bool                          // _capture_own is generated
	decls  map[*types.Func]*ast.FuncDecl // the package's functions and methods
}

// markOwnedArgs marks the owned addresses a direct call of fn, a function
// or method of the observed set, passes to parameters that are not
// decided owned at transform time.
func (t *transformer) markOwnedArgs(call *ast.CallExpr, fn *types.Func, stack []ast.Node) {
	fn = fn.Origin()
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return
	}
	n := sig.Params().Len()
	encl := enclosingFuncNode(stack)
	for i, a := range call.Args {
		if i >= n || (sig.Variadic() && i >= n-1) {
			break
		}
		pv := sig.Params().At(i)
		if !ownTarget(pv.Type(), t) {
			continue
		}
		at := t.p.Info.TypeOf(a)
		if at == nil {
			continue
		}
		if _, ptr := at.Underlying().(*types.Pointer); !ptr || t.observedPointer(at) || syncPointer(at) {
			continue
		}
		if !t.ownedAddr(a, encl) {
			continue
		}
		if fd := t.ownsDecl(fn); fd != nil && t.ownedParam(pv, fd) {
			continue // every call gives an owned address: decided statically
		}
		if !t.owns.helper {
			t.owns.helper = true
			fmt.Fprintf(&t.gen, `// _capture_own marks an address the observed code owns that it passes to a
// parameter whose other callers may pass one from outside.
func _capture_own[P any](p P) P {
	return %s.Own(p)
}

`, t.probe)
		}
		span := int(a.End() - a.Pos())
		t.add(a.Pos(), a.Pos(), "_capture_own(", span)
		t.add(a.End(), a.End(), ")", span)
	}
}

// ownTarget reports whether a parameter of type pt may carry an owned
// address on to an outcall that writes through it: an interface, or a
// pointer to a type of no observed package.
func ownTarget(pt types.Type, t *transformer) bool {
	if _, tp := types.Unalias(pt).(*types.TypeParam); tp {
		return false
	}
	switch u := pt.Underlying().(type) {
	case *types.Interface:
		return true
	case *types.Pointer:
		return !t.observedPointer(pt) && !syncPointer(pt) && u.Elem() != nil
	}
	return false
}

// ownsDecl is fn's declaration in this package, or nil.
func (t *transformer) ownsDecl(fn *types.Func) *ast.FuncDecl {
	if fn.Pkg() != t.p.Types {
		return nil
	}
	if t.owns.decls == nil {
		t.owns.decls = map[*types.Func]*ast.FuncDecl{}
		for _, f := range t.p.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if obj, ok := t.p.Info.Defs[fd.Name].(*types.Func); ok {
						t.owns.decls[obj] = fd
					}
				}
			}
		}
	}
	return t.owns.decls[fn]
}

// mayCarryOwned reports whether an outcall's receiver or argument of static
// type xt may hold an address marked owned at run time: a pointer to a type
// of no observed package or an interface (not a type parameter).
func (t *transformer) mayCarryOwned(xt types.Type) bool {
	if xt == nil {
		return false
	}
	if _, tp := types.Unalias(xt).(*types.TypeParam); tp {
		return false
	}
	switch xt.Underlying().(type) {
	case *types.Interface:
		return true
	case *types.Pointer:
		return !t.observedPointer(xt) && !syncPointer(xt)
	}
	return false
}

// ownedAtRunTime has the outcall record the pointee of x (the helper's
// receiver or parameter) when it is an address marked owned at run time.
func (t *transformer) ownedAtRunTime(o *outcallHelper, x string) {
	o.outEncs = append(o.outEncs, t.probe+".OutPointeeIfOwned(s, "+x+")")
	o.outDecs = append(o.outDecs, t.probe+".SetOutPointeeIfOwned(s, "+x+")")
}

// ownedArgAtRunTime reports whether argument i of an outcall, for
// parameter type pt, may be an address marked owned at run time that the
// callee writes through: a parameter that is a pointer or an interface (an
// empty one is written by reflection, one with methods through them),
// given a pointer or an interface the transform could not decide owned.
func (t *transformer) ownedArgAtRunTime(call *ast.CallExpr, i int, pt types.Type) bool {
	if i >= len(call.Args) {
		return false
	}
	switch pt.Underlying().(type) {
	case *types.Pointer, *types.Interface:
	default:
		return false
	}
	return t.mayCarryOwned(pt) && t.mayCarryOwned(t.p.Info.TypeOf(call.Args[i]))
}
