package transform

import (
	"fmt"
	"go/types"
)

// registerImportedVars registers the exported variables of the packages a
// package that reflects over values from outside imports, whose values may
// be of a type replay cannot name: a variable of an unexported type
// (http.NoBody, a noBody) or of an interface type other than error
// (io.Discard). Objects the package records deeply hold such values (the
// Body of an *http.Request made with httptest.NewRequest is http.NoBody),
// and replay could rebuild neither the value nor its identity, which code
// of the other package tests (req.Body == http.NoBody). The runtime keeps
// only the values that need it (probe.SentinelVar); errors, values of
// exported types and pointers to them are left as they were. Reading the variables
// keeps them, and their types, linked in the replay binary.
func (t *transformer) registerImportedVars() {
	for _, imp := range t.p.Types.Imports() {
		if imp.Path() == "unsafe" || imp.Path() == "C" || t.observed[imp.Path()] {
			continue
		}
		scope := imp.Scope()
		for _, name := range scope.Names() {
			v, ok := scope.Lookup(name).(*types.Var)
			if !ok || !v.Exported() || !sentinelVarType(v.Type()) {
				continue
			}
			fmt.Fprintf(&t.register, "\t%s.SentinelVar(%q, %s.%s)\n", t.probe, imp.Path()+"."+name, t.alias(imp.Path(), imp.Name()), name)
		}
	}
}

// sentinelVarType: a variable of type typ may hold a value of a type
// replay cannot name: an interface type other than error, an unexported
// named type that is no pointer, or a pointer to one.
func sentinelVarType(typ types.Type) bool {
	if types.Identical(typ, types.Universe.Lookup("error").Type()) {
		return false
	}
	if types.IsInterface(typ) {
		return true
	}
	if p, ok := types.Unalias(typ).(*types.Pointer); ok {
		typ = p.Elem() // http.ServerContextKey, a *contextKey
	}
	n, ok := types.Unalias(typ).(*types.Named)
	if !ok || n.Obj().Exported() || n.TypeArgs() != nil {
		return false
	}
	_, ptr := n.Underlying().(*types.Pointer)
	return !ptr
}
