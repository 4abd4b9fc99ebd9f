package transform

import (
	"go/ast"
	"go/types"
)

// Writes external code makes, during an outcall, to memory that replay
// holds as the observed code's own (docs/design/boundary-model.md,
// "Out-parameters"). In replay the outcall is answered from the log and the
// external code does not run, so whatever it wrote must come from the log:
//
//   - a map receiver or argument (`values.Add(k, v)` on a url.Values,
//     `h.Set(k, v)` on an http.Header): replay rebuilds every map by value,
//     as a real map, so any map an outcall gets may be written and read back
//     natively;
//   - the pointee of a pointer receiver that is an address the observed
//     code owns (ownedAddr: `u.UnmarshalBinary(b)` on a local `u` of an
//     external type, `&u` taken implicitly), or of an interface receiver
//     holding one (`w.Write(p)` on an unexported function's `w io.Writer`
//     that every call gives `&buf`);
//   - the pointee of an owned address passed as an interface with methods
//     (`binary.Write(&buf, order, x)`, `fmt.Fprintf(&sb, ...)` with an
//     io.Writer parameter), unless it points to an observed type, whose
//     methods the external code calls back (replayed as incalls).
//
// Each is recorded after the call (probe.OutMap, probe.OutPointee) and
// written back by replay (probe.SetMap, probe.SetOutPointee).

// recvOut makes an outcall's receiver an out-parameter when the external
// method may write memory replay holds natively.
func (t *transformer) recvOut(o *outcallHelper, stack []ast.Node) {
	c := o.c
	if c.sel == nil || o.inferred || c.fn == nil || t.embeddedRecvOut(o) || o.fieldPath != "" { // embedout.go
		return
	}
	xt := t.p.Info.TypeOf(c.recvX)
	if c.iface {
		// An interface holding an owned address (`w.Write(p)` on a
		// parameter `w io.Writer` of an unexported function every call
		// gives `&buf`): its pointee, whatever its dynamic type. An
		// observed dynamic type's method runs as observed code instead.
		if types.IsInterface(xt) && t.ownedAddr(c.recvX, enclosingFuncNode(stack)) {
			o.outEncs = append(o.outEncs, t.probe+".OutPointee(s, _r)")
			o.outDecs = append(o.outDecs, t.probe+".SetOutPointee(s, _r)")
		} else if t.mayCarryOwned(xt) {
			t.ownedAtRunTime(o, "_r") // owned.go
		}
		return
	}
	if _, isMap := xt.Underlying().(*types.Map); isMap && o.prefix == "" {
		o.outEncs = append(o.outEncs, t.probe+".OutMap(s, _r)")
		o.outDecs = append(o.outDecs, t.probe+".SetMap(s, _r)")
		return
	}
	msig, ok := c.fn.Type().(*types.Signature)
	if !ok || msig.Recv() == nil {
		return
	}
	if _, ptrRecv := msig.Recv().Type().(*types.Pointer); !ptrRecv {
		return
	}
	var owned bool
	if o.prefix == "&" {
		owned = t.ownedMemory(c.recvX)
		xt = types.NewPointer(xt)
	} else {
		owned = t.ownedAddr(c.recvX, enclosingFuncNode(stack))
	}
	if syncPointer(xt) || t.observedPointer(xt) {
		return
	}
	if !owned {
		if o.prefix != "&" {
			t.ownedAtRunTime(o, "_r") // owned.go
		}
		return
	}
	o.outEncs = append(o.outEncs, t.probe+".OutPointee(s, _r)")
	o.outDecs = append(o.outDecs, t.probe+".SetOutPointee(s, _r)")
}

// ifaceOut reports whether argument i of an outcall, for parameter type pt,
// is an owned address passed as an interface with methods, whose pointee
// is recorded after the call. (Pointers and empty interfaces are
// outParams'.)
func (t *transformer) ifaceOut(call *ast.CallExpr, i int, pt types.Type, fn ast.Node) bool {
	iface, ok := pt.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 || i >= len(call.Args) {
		return false
	}
	at := t.p.Info.TypeOf(call.Args[i])
	switch at.Underlying().(type) {
	case *types.Pointer, *types.Interface: // an interface: a parameter forwarded (ownedParam)
	default:
		return false
	}
	return t.ownedAddr(call.Args[i], fn) && !syncPointer(at) && !t.observedPointer(at)
}

// mapOut reports whether a parameter of type pt takes a map whose contents
// are recorded after the call.
func mapOut(pt types.Type) bool {
	_, ok := pt.Underlying().(*types.Map)
	return ok
}
