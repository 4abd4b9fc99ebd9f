package transform

import (
	"go/ast"
	"go/types"
)

// Where a reflect.Value can reach observed code from the log
// (docs/design/reflection.md). A reflect.Value is a handle into memory the
// log does not hold, so replay cannot hand native reflection the one the
// capture saw: a slot whose recorded value carries one is rejected. What a
// slot's recorded value carries is what it holds by value: struct fields,
// array, slice and map elements. A pointer carries no reflect.Value of its
// own: a pointer to another package's type is a reference without contents
// (the observed code reads its fields through READ_OUTs, each checked
// here), and a pointer to an observed type is an object that replay binds
// by its ID to the one the replayed code made, whose fields that code set
// natively. The exception is an incall parameter of a package that
// reflects over values from outside: it records pointers to other
// packages' types deeply (probe.EncodeReflected), contents included
// (deep).

// reflectValueHeld returns the reflect type that a value of type typ
// recorded in the log would carry and replay could not rebuild
// ("reflect.Value"), or "".
func (t *transformer) reflectValueHeld(typ types.Type, deep bool) string {
	if t.heldByValue(typ, deep, isReflectType, map[types.Type]bool{}) != "" {
		t.reflectTypesCross()
	}
	return t.heldByValue(typ, deep, isReflectHandle, map[types.Type]bool{})
}

// reflectTypesCross: a reflect.Type crosses the boundary into the package
// (an outcall's result, a read, a parameter), recorded by the name of the
// type it describes. Replay looks that name up in its build: the exported
// types of the packages the package imports are registered, so that the
// types it is likely to be handed (expr's nature.FromType of a type of
// the caller's environment) are found by name even where the binary's type
// table lacks them (value.LinkedType finds a named type only through its
// pointer type).
func (t *transformer) reflectTypesCross() {
	t.registerImportedTypes() // registerType skips the types registered already
}

// isReflectType reports whether typ is reflect.Type.
func isReflectType(typ types.Type) bool {
	return isReflect(typ) && !isReflectHandle(typ)
}

func (t *transformer) heldByValue(typ types.Type, deep bool, match func(types.Type) bool, seen map[types.Type]bool) string {
	if typ == nil || seen[typ] {
		return ""
	}
	seen[typ] = true
	if match(typ) {
		return types.TypeString(typ, nil)
	}
	switch u := typ.Underlying().(type) {
	case *types.Pointer:
		if !deep {
			return ""
		}
		if n, ok := types.Unalias(u.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil && t.observed[n.Obj().Pkg().Path()] {
			return ""
		}
		return t.heldByValue(u.Elem(), deep, match, seen)
	case *types.Slice:
		return t.heldByValue(u.Elem(), deep, match, seen)
	case *types.Array:
		return t.heldByValue(u.Elem(), deep, match, seen)
	case *types.Map:
		if r := t.heldByValue(u.Key(), deep, match, seen); r != "" {
			return r
		}
		return t.heldByValue(u.Elem(), deep, match, seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if f := u.Field(i); !f.Exported() && f.Pkg() != t.p.Types {
				// Another package's unexported field (json.Decoder's
				// errorContext.Struct): the package's code cannot reach it.
				continue
			}
			if r := t.heldByValue(u.Field(i).Type(), deep, match, seen); r != "" {
				return r
			}
		}
	case *types.Tuple:
		for i := 0; i < u.Len(); i++ {
			if r := t.heldByValue(u.At(i).Type(), deep, match, seen); r != "" {
				return r
			}
		}
	}
	return ""
}

// reflectValueRead rejects a READ_OUT (a read of another package's
// variable or of a field of an external struct, what) whose value holds a
// reflect.Value.
func (t *transformer) reflectValueRead(x ast.Expr, what string, typ types.Type) bool {
	r := t.reflectValueHeld(typ, false)
	if r == "" {
		return false
	}
	t.errorf(x.Pos(), "reading "+what+", which holds a "+r+", in a package whose reflection runs natively",
		"read it in an unobserved package and pass the underlying value in, or leave this package out of the observed set")
	return true
}
