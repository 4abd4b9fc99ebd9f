package transform

import (
	"fmt"
	"go/ast"
)

// Memory that observed code makes with reflect.New is its own, as memory
// it makes with new(T) is (docs/design/boundary-model.md,
// "Out-parameters"). The code may hand it to external code that writes it:
// mapstructure's TextUnmarshallerHookFunc calls UnmarshalText on
// `reflect.New(t).Interface()`, a *big.Int it then returns. The address
// flows through a reflect.Value and an interface the transform cannot
// follow, so the call marks it at run time (probe.OwnNew): an outcall whose
// receiver or argument is a marked address records the pointee after the
// call and replay writes it back (probe.OutPointeeIfOwned). reflect.New
// runs natively in replay too, so both mark the same addresses.

// ownReflectNew rewrites reflect.New(t) into _capture_own_new(reflect.New(t)).
func (t *transformer) ownReflectNew(call *ast.CallExpr) {
	if !t.owns.newer {
		t.owns.newer = true
		reflectPkg := t.alias("reflect", "reflect")
		fmt.Fprintf(&t.gen, `// _capture_own_new marks the memory reflect.New made as the observed
// code's own, and returns it.
func _capture_own_new(v %s.Value) %s.Value {
	return %s.OwnNew(v)
}

`, reflectPkg, reflectPkg, t.probe)
	}
	span := int(call.End() - call.Pos())
	t.add(call.Pos(), call.Pos(), "_capture_own_new(", span)
	t.add(call.End(), call.End(), ")", span)
}

// ownReflectMade rewrites reflect.MakeSlice(...), reflect.Append(...) and
// reflect.AppendSlice(...) into _capture_own_made(...): the backing array
// they make (or return) is the observed code's own memory, as reflect.New's
// is, and a decoder hands pointers to its elements to outside methods that
// write them (go-toml's UnmarshalText on `slice.Index(i).Addr()`).
func (t *transformer) ownReflectMade(call *ast.CallExpr) {
	if !t.owns.made {
		t.owns.made = true
		reflectPkg := t.alias("reflect", "reflect")
		fmt.Fprintf(&t.gen, `// _capture_own_made marks the backing array of slice v, which observed
// code made by reflection, as the observed code's own, and returns v.
func _capture_own_made(v %s.Value) %s.Value {
	return %s.OwnMade(v)
}

`, reflectPkg, reflectPkg, t.probe)
	}
	span := int(call.End() - call.Pos())
	t.add(call.Pos(), call.Pos(), "_capture_own_made(", span)
	t.add(call.End(), call.End(), ")", span)
}
