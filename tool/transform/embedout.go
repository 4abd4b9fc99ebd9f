package transform

import (
	"go/types"
)

// embeddedRecvOut makes the receiver of an outcall to a method promoted
// from an external struct that observed memory embeds by value an
// out-parameter, and reports whether it did
// (docs/design/boundary-model.md, "Out-parameters"):
// goldmark's extension/ast.NewTableHeader calls `n.SetPos(row.Pos())` on
// `n := &TableHeader{}`, which is (*ast.BaseNode).SetPos on
// `&n.BaseBlock.BaseNode`, and then hands `n` to other calls with its
// contents. The external method writes the embedded struct, which is the
// observed object's own memory, real in replay; replay answers the call
// from the log, so it writes the recorded contents back.
//
// The memory must be the observed code's own from the receiver expression
// down: an observed object through its pointer, or an owned variable, and
// then only fields embedded by value (an embedded pointer may lead to a
// placeholder in replay).
func (t *transformer) embeddedRecvOut(o *outcallHelper) bool {
	c := o.c
	path := c.sel.Index()
	if len(path) < 2 {
		return false
	}
	msig, ok := c.fn.Type().(*types.Signature)
	if !ok || msig.Recv() == nil {
		return false
	}
	if _, ptrRecv := msig.Recv().Type().(*types.Pointer); !ptrRecv {
		return false
	}
	typ := t.p.Info.TypeOf(c.recvX)
	if _, ptr := typ.Underlying().(*types.Pointer); ptr {
		if !t.observedPointer(typ) {
			return false
		}
	} else if !t.ownedMemory(c.recvX) {
		return false
	}
	for _, idx := range path[:len(path)-1] {
		u := typ
		if p, ok := u.Underlying().(*types.Pointer); ok {
			u = p.Elem()
		}
		st, ok := u.Underlying().(*types.Struct)
		if !ok {
			return false
		}
		typ = st.Field(idx).Type()
		switch typ.Underlying().(type) {
		case *types.Pointer, *types.Interface:
			return false
		}
	}
	if syncPointer(types.NewPointer(typ)) {
		return false
	}
	o.outEncs = append(o.outEncs, t.probe+".OutPointee(s, _r)")
	o.outDecs = append(o.outDecs, t.probe+".SetMarkedOutPointee(s, _r)")
	return true
}
