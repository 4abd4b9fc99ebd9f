package transform

import "go/types"

// watchedSlice reports whether an incall's result of type typ is a slice
// whose memory the capture watches after the incall returns
// (probe.WatchSlice): a slice of plain memory (numbers, booleans, strings,
// and arrays and structs of them), which the observed code may keep and
// the caller fill (b.data[len(b.data)-n:] handed out to be written).
// Slices of pointers, maps or interfaces are encoded through the object
// table and are not watched; nor results of a type parameter's type.
func watchedSlice(typ types.Type) bool {
	if hasTypeParam(typ) {
		return false
	}
	s, ok := typ.Underlying().(*types.Slice)
	return ok && plainType(s.Elem())
}

// plainType: equal bytes of two values of typ mean equal values.
func plainType(typ types.Type) bool {
	switch u := typ.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) != 0
	case *types.Array:
		return plainType(u.Elem())
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if !plainType(u.Field(i).Type()) {
				return false
			}
		}
		return true
	}
	return false
}

// watchedMap reports whether an incall's result of type typ is a map whose
// entries the capture watches after the incall returns (probe.WatchMap):
// a map keyed by plain memory whose elements are plain memory or
// interfaces, which the observed code may keep and the caller fill
// (goldmark's doc.Meta()[k] = v). Not results of a type parameter's type.
func watchedMap(typ types.Type) bool {
	if hasTypeParam(typ) {
		return false
	}
	m, ok := typ.Underlying().(*types.Map)
	if !ok || !plainType(m.Key()) {
		return false
	}
	_, iface := m.Elem().Underlying().(*types.Interface)
	return iface || plainType(m.Elem())
}
