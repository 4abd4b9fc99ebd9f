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
	return t.heldByValue(typ, deep, map[types.Type]bool{})
}

func (t *transformer) heldByValue(typ types.Type, deep bool, seen map[types.Type]bool) string {
	if typ == nil || seen[typ] {
		return ""
	}
	seen[typ] = true
	if isReflectHandle(typ) {
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
		return t.heldByValue(u.Elem(), deep, seen)
	case *types.Slice:
		return t.heldByValue(u.Elem(), deep, seen)
	case *types.Array:
		return t.heldByValue(u.Elem(), deep, seen)
	case *types.Map:
		if r := t.heldByValue(u.Key(), deep, seen); r != "" {
			return r
		}
		return t.heldByValue(u.Elem(), deep, seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if f := u.Field(i); !f.Exported() && f.Pkg() != t.p.Types {
				// Another package's unexported field (json.Decoder's
				// errorContext.Struct): the package's code cannot reach it.
				continue
			}
			if r := t.heldByValue(u.Field(i).Type(), deep, seen); r != "" {
				return r
			}
		}
	case *types.Tuple:
		for i := 0; i < u.Len(); i++ {
			if r := t.heldByValue(u.At(i).Type(), deep, seen); r != "" {
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
