// Package reflecttype: observed code calls a method of reflect.Type, an
// external interface some of whose methods mention iter.Seq (go-cmp's
// cmp/internal/function.IsType).
package reflecttype

import "reflect"

// IsFunc reports whether t is a function type.
func IsFunc(t reflect.Type) bool { return t.Kind() == reflect.Func }
