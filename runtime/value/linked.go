package value

import (
	"reflect"
	"strings"
	"sync"
	"unsafe"
)

// Types found in the binary's own type table.
//
// Replay rebuilds an interface value as its dynamic type when the build
// knows the type by name (LookupType): registered types and the unnamed
// types made of them. An unexported type of another package cannot be
// registered (the generated code cannot name it), yet the replay binary
// often links it: pflag reflects over a *flag.Flag whose Value is a
// *flag.stringValue, and package flag is linked because pflag imports it.
// The Go runtime keeps a table of the pointer, slice, map, channel, array,
// func and struct literal types a binary holds, sorted by their reflect
// strings (reflect.typelinks and reflect.typesByString, which Go keeps for
// the packages that use them, go.dev/issue/67401); LinkedType finds a named
// type among the types reachable from those (namedInBinary). A value rebuilt this way is of the very type the capture
// saw, so native reflection over it (reflect.TypeOf, reflect.New of its
// element, its kind and fields) behaves as in the capture.

//go:linkname typesByString reflect.typesByString
func typesByString(s string) []unsafe.Pointer

//go:linkname typelinks reflect.typelinks
func typelinks() (sections []unsafe.Pointer, offset [][]int32)

// namedIndex maps "path.Name" to the named types of the binary of that
// package path and name: those its type table lists (pointer, slice, map,
// channel, array, func and struct literal types) and every named type
// reachable from them through elements, keys, fields, parameters and
// results. A named type the program uses only by value (a test's
// `type MyFloat float32` in `[]MyFloat` and `func(MyFloat) float64`) has
// no pointer type in the binary, yet its descriptor is there, reachable
// from the types the table lists; capture (ambiguous) and replay
// (linkedNamed) look names up alike, in this index. Built once: a
// binary's types do not change.
var namedIndex struct {
	once sync.Once
	m    map[string][]reflect.Type
}

// namedInBinary returns the named types of the binary called path.name.
func namedInBinary(path, name string) []reflect.Type {
	namedIndex.once.Do(func() {
		m := map[string][]reflect.Type{}
		seen := map[reflect.Type]bool{}
		var visit func(t reflect.Type)
		visit = func(t reflect.Type) {
			if seen[t] {
				return
			}
			seen[t] = true
			if t.Name() != "" && t.PkgPath() != "" {
				k := t.PkgPath() + "." + t.Name()
				m[k] = append(m[k], t)
			}
			switch t.Kind() {
			case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
				visit(t.Elem())
			case reflect.Map:
				visit(t.Key())
				visit(t.Elem())
			case reflect.Func:
				for i := range t.NumIn() {
					visit(t.In(i))
				}
				for i := range t.NumOut() {
					visit(t.Out(i))
				}
			case reflect.Struct:
				for i := range t.NumField() {
					visit(t.Field(i).Type)
				}
			}
		}
		sections, offsets := typelinks()
		for i, base := range sections {
			for _, off := range offsets[i] {
				visit(typeOfDescriptor(unsafe.Add(base, off)))
			}
		}
		namedIndex.m = m
	})
	return namedIndex.m[path+"."+name]
}

// typeOfDescriptor makes a reflect.Type of a type descriptor, as an
// interface value of that type whose data word is nil (reflect.TypeOf reads
// the type word only).
func typeOfDescriptor(p unsafe.Pointer) reflect.Type {
	var x any
	(*[2]unsafe.Pointer)(unsafe.Pointer(&x))[0] = p
	return reflect.TypeOf(x)
}

var linked sync.Map // type name -> reflect.Type (nil: not in the binary)

// LinkedType returns the type a log names, as LookupType does, and
// otherwise looks its named parts up in the binary's type table: a named
// type of another package that the binary links, found through its
// pointer type, the unnamed types made of such types ("*flag.stringValue"),
// and struct type literals the binary holds ("struct { V string }", which
// the table lists by that very string). It refuses a name that two types
// of the binary share (a type declared inside a function and a
// package-level type of one name, which the log names alike) unless
// reflection cannot tell them apart (interchangeable), and generic
// instantiations.
func LinkedType(name string) (reflect.Type, bool) {
	if t, ok := LookupType(name); ok {
		return t, true
	}
	if name == "error" {
		// Only as a part of an unnamed type ("[]error", cast.ToStringSlice
		// given a []error): the decoder rebuilds an interface value as its
		// dynamic type, never as an interface type.
		return reflect.TypeFor[error](), true
	}
	if t, ok := compositeTypeOf(name, LinkedType); ok {
		return t, true
	}
	if c, ok := linked.Load(name); ok {
		t, _ := c.(reflect.Type)
		return t, t != nil
	}
	var t reflect.Type
	if base, fp, ok := cutFingerprint(name); ok {
		t = linkedByFingerprint(base, fp)
	} else if t = linkedNamed(name); t == nil {
		// A struct, func or chan type literal (typeexpr.go), or a named
		// type spelled as reflect spells the parts of one ("toml.T").
		if t = madeType(name); t == nil {
			t = byReflectString(name)
		}
	}
	linked.Store(name, t)
	return t, t != nil
}

// linkedNamed finds the named type "path.Name" in the binary
// (namedInBinary), or returns nil.
func linkedNamed(name string) reflect.Type {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || strings.ContainsAny(name, "[]*() ") {
		return nil
	}
	var found reflect.Type
	for _, e := range namedInBinary(name[:i], name[i+1:]) {
		if found != nil && !interchangeable(found, e) {
			return nil // two types of one name that reflection tells apart
		}
		if found == nil {
			found = e
		}
	}
	return found
}

// linkedLiteral finds the struct type literal whose reflect string is name
// in the binary's type table, or returns nil. The compiler lists every
// unnamed struct type a binary holds there (reflect.StructOf must return
// the program's own type when it has one), so a value of a literal type
// the test declared (toml.Decode(s, &struct{ A int }{})) is rebuilt as that
// very type when the replay binary links the code that declared it. Field
// types are spelled with package names, which two packages can share: a
// name matching types that reflection tells apart is refused.
func linkedLiteral(name string) reflect.Type {
	var found reflect.Type
	for _, p := range typesByString(name) {
		t := typeOfDescriptor(p)
		if t.Kind() != reflect.Struct || t.Name() != "" || t.String() != name {
			continue
		}
		if found != nil && !interchangeable(found, t) {
			return nil
		}
		if found == nil {
			found = t
		}
	}
	return found
}

// interchangeable reports whether a and b, two types of one reflect string
// (type foo struct{} declared inside two test functions), look alike to
// every reflection but identity: the same kind, size and layout, the same
// field names, tags and types (or interchangeable ones), and no methods on
// either type or its pointer, so that no method call, type assertion or
// walk over fields can tell which of the two a value has. A value rebuilt
// as either replays alike; only a comparison of the reflect.Type itself
// with one the code kept could differ.
func interchangeable(a, b reflect.Type) bool {
	return interchangeableAssuming(a, b, nil)
}

// typePair is a pair of types interchangeableAssuming is comparing.
type typePair struct{ a, b reflect.Type }

// interchangeableAssuming is interchangeable, taking the pairs in assumed
// to be interchangeable: a pair met again inside itself (a recursive type,
// spew's tests' `type circular struct{ c *circular }` declared in several
// test functions) holds if nothing else tells the two apart, and its
// comparison ends instead of recursing without end.
func interchangeableAssuming(a, b reflect.Type, assumed map[typePair]bool) bool {
	if a == b || assumed[typePair{a, b}] {
		return true
	}
	if a.Kind() != b.Kind() || a.String() != b.String() || a.Size() != b.Size() ||
		a.NumMethod() != 0 || b.NumMethod() != 0 {
		return false
	}
	if a.Name() != "" && (reflect.PointerTo(a).NumMethod() != 0 || reflect.PointerTo(b).NumMethod() != 0) {
		return false
	}
	if assumed == nil {
		assumed = map[typePair]bool{}
	}
	assumed[typePair{a, b}] = true
	same := func(x, y reflect.Type) bool { return interchangeableAssuming(x, y, assumed) }
	switch a.Kind() {
	case reflect.Struct:
		if a.NumField() != b.NumField() {
			return false
		}
		for i := range a.NumField() {
			fa, fb := a.Field(i), b.Field(i)
			if fa.Name != fb.Name || fa.PkgPath != fb.PkgPath || fa.Tag != fb.Tag ||
				fa.Anonymous != fb.Anonymous || fa.Offset != fb.Offset || !same(fa.Type, fb.Type) {
				return false
			}
		}
		return true
	case reflect.Array:
		return a.Len() == b.Len() && same(a.Elem(), b.Elem())
	case reflect.Pointer, reflect.Slice:
		return same(a.Elem(), b.Elem())
	case reflect.Map:
		return same(a.Key(), b.Key()) && same(a.Elem(), b.Elem())
	case reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return false
	}
	return a.PkgPath() == b.PkgPath() // a basic kind, the same size: the same underlying type
}
