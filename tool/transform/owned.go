package transform

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
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
	newer  bool                          // _capture_own_new is generated (reflectnew.go)
	made   bool                          // _capture_own_made is generated (reflectnew.go)
	funcPC bool                          // _capture_func_pointer is generated (reflect.go)
	typed  map[string]string             // type -> its marking helper, before go1.18
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
		helper := t.ownHelper(at)
		if helper == "" {
			continue
		}
		span := int(a.End() - a.Pos())
		t.add(a.Pos(), a.Pos(), helper+"(", span)
		t.add(a.End(), a.End(), ")", span)
	}
}

// ownHelper is the name of the generated function that marks an address
// of type at and returns it: a generic one, or before go1.18, where the
// file cannot call a generic function, one for the type ("" when the
// generated file cannot name it).
func (t *transformer) ownHelper(at types.Type) string {
	if !t.langBefore("go1.18") {
		if !t.owns.helper {
			t.owns.helper = true
			fmt.Fprintf(&t.gen, `// _capture_own marks an address the observed code owns that it passes to a
// parameter whose other callers may pass one from outside.
func _capture_own[P any](p P) P {
	return %s.Own(p)
}

`, t.probe)
		}
		return "_capture_own"
	}
	ts, why := t.typeString(at)
	if why != "" {
		return ""
	}
	if t.owns.typed == nil {
		t.owns.typed = map[string]string{}
	}
	if h, ok := t.owns.typed[ts]; ok {
		return h
	}
	h := fmt.Sprintf("_capture_own_%d", len(t.owns.typed))
	t.owns.typed[ts] = h
	fmt.Fprintf(&t.gen, `// %s is _capture_own for a file whose language version has no
// generic functions.
func %s(p %s) %s {
	return %s.Own(p)
}

`, h, h, ts, ts, t.probe)
	return h
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

// keptByResults has an outcall that records the pointee of an owned
// address it gets (or may get) make each result that is a pointer to an
// external object a keeper of those addresses (probe.KeptBy): the callee may
// keep the address in the object and write through it in a later call on
// it (toml's `bufio.NewWriter(w)` with the `new(bytes.Buffer)` Marshal made,
// filled at `Flush`), and those calls record the pointee again.
func (t *transformer) keptByResults(o *outcallHelper) {
	owns := false
	for _, e := range o.outEncs {
		if strings.Contains(e, ".OutPointeeIfOwned(") || strings.Contains(e, ".OutPointee(") {
			owns = true
			break
		}
	}
	if !owns {
		return
	}
	for i := 0; i < o.sig.Results().Len(); i++ {
		rt := o.sig.Results().At(i).Type()
		// Only a pointer to a concrete external object: a result held
		// in an interface (context.WithValue's Context, Value's any) is
		// in replay a placeholder whose identity need not be the one
		// the capture's later calls get (chi's r.Context().Value(...)
		// after r.WithContext(context.WithValue(ctx, k, rctx))), so
		// capture and replay would disagree on which calls record the
		// kept memory; an error keeps no writer.
		if _, ptr := rt.Underlying().(*types.Pointer); !ptr || !t.mayCarryOwned(rt) {
			continue
		}
		kb := t.probe + ".KeptBy(s, " + o.rnames[i] + ")"
		o.rencs = append(o.rencs, kb)
		o.rdecs = append(o.rdecs, kb)
	}
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

// argsOnlyRead names the external functions that never write the memory
// their arguments point to, whose pointer and interface arguments are no
// out-parameters however owned: recording the pointee after the call would
// only cost, and writing it back in replay would overwrite the observed
// code's object with a copy of itself (go-cache's
// `runtime.SetFinalizer(C, stopJanitor)` on its new `&Cache{c}`).
var argsOnlyRead = map[string]bool{
	"runtime.SetFinalizer": true, // sets the object's finalizer, not its contents
	"runtime.KeepAlive":    true,
}

// asTargetFromOutside reports whether call is errors.As with a target held
// in an interface that is no owned address (pkg/errors' `func As(err
// error, target interface{}) bool { return stderrors.As(err, target) }`):
// a pointer that came from outside, to a type replay may not be able to
// make (one of a test file), whose placeholder would not implement error,
// and which errors.As writes. Such a call is an outcall: replay answers it
// from the log. errors.As on the code's own target (`errors.As(err, &pe)`)
// stays native.
func (t *transformer) asTargetFromOutside(call *ast.CallExpr, fn *types.Func, stack []ast.Node) bool {
	if fn.Name() != "As" || len(call.Args) != 2 {
		return false
	}
	tt := t.p.Info.TypeOf(call.Args[1])
	if tt == nil || !types.IsInterface(tt) {
		return false
	}
	if _, tp := types.Unalias(tt).(*types.TypeParam); tp {
		return false
	}
	return !t.ownedAddr(call.Args[1], enclosingFuncNode(stack))
}
