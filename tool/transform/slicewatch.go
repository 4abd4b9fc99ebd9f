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

// heldResult reports whether an incall's result of type typ is a struct or
// array holding a map in its own memory (a field, an element, at any depth,
// not behind a pointer or interface), whose value replay keeps
// (probe.KeepResult): the caller's copy of it shares the map with the
// observed state (gods' linkedhashmap.Iterator{table: m.table}), while the
// log gives the copy's map by its entries when the copy crosses again.
// (Slices have their array's identity in the log.) Not results of a type
// parameter's type.
func heldResult(typ types.Type) bool {
	if hasTypeParam(typ) {
		return false
	}
	switch typ.Underlying().(type) {
	case *types.Struct, *types.Array:
		return holdsMap(typ, map[types.Type]bool{})
	}
	return false
}

// holdsMap reports whether a value of typ holds a map in its own memory.
func holdsMap(typ types.Type, seen map[types.Type]bool) bool {
	if seen[typ] {
		return false
	}
	seen[typ] = true
	switch u := typ.Underlying().(type) {
	case *types.Map:
		return true
	case *types.Array:
		return u.Len() > 0 && holdsMap(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsMap(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}
