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
// The Go runtime keeps a table of the pointer, slice, map, channel and
// array types a binary holds, sorted by their reflect strings
// (reflect.typesByString, which Go keeps for the packages that use it,
// go.dev/issue/67401); LinkedType finds a named type there through its
// pointer type. A value rebuilt this way is of the very type the capture
// saw, so native reflection over it (reflect.TypeOf, reflect.New of its
// element, its kind and fields) behaves as in the capture.

//go:linkname typesByString reflect.typesByString
func typesByString(s string) []unsafe.Pointer

// typeOfDescriptor makes a reflect.Type of a type descriptor of a pointer
// type, as an interface value holding a nil pointer of that type.
func typeOfDescriptor(p unsafe.Pointer) reflect.Type {
	var x any
	(*[2]unsafe.Pointer)(unsafe.Pointer(&x))[0] = p
	return reflect.TypeOf(x)
}

var linked sync.Map // type name -> reflect.Type (nil: not in the binary)

// LinkedType returns the type a log names, as LookupType does, and
// otherwise looks its named parts up in the binary's type table: a named
// type of another package that the binary links, found through its
// pointer type, and the unnamed types made of such types ("*flag.stringValue").
// It refuses a name that two types of the binary share (a type declared
// inside a function and a package-level type of one name, which the log
// names alike) and generic instantiations.
func LinkedType(name string) (reflect.Type, bool) {
	if t, ok := LookupType(name); ok {
		return t, true
	}
	if t, ok := compositeTypeOf(name, LinkedType); ok {
		return t, true
	}
	if c, ok := linked.Load(name); ok {
		t, _ := c.(reflect.Type)
		return t, t != nil
	}
	t := linkedNamed(name)
	linked.Store(name, t)
	return t, t != nil
}

// linkedNamed finds the named type "path.Name" in the binary's type table,
// or returns nil.
func linkedNamed(name string) reflect.Type {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || strings.ContainsAny(name, "[]*() ") {
		return nil
	}
	path, tname := name[:i], name[i+1:]
	var found reflect.Type
	for _, pkg := range packageNames(path) {
		for _, p := range typesByString("*" + pkg + "." + tname) {
			t := typeOfDescriptor(p)
			if t.Kind() != reflect.Pointer {
				continue
			}
			e := t.Elem()
			if e.PkgPath() != path || e.Name() != tname {
				continue
			}
			if found != nil && found != e {
				return nil // two types of one name
			}
			found = e
		}
	}
	return found
}

// packageNames are the names the package at path may have, as reflect
// strings spell types: the name a registered type of the package shows,
// else the last element of the path without a major version suffix
// (gopkg.in/yaml.v3: yaml, github.com/pelletier/go-toml/v2: go-toml, toml).
// A wrong guess finds nothing: a type found is checked against the path.
func packageNames(path string) []string {
	var names []string
	registry.RLock()
	for _, t := range registry.types {
		if t.PkgPath() == path && t.Name() != "" {
			if s := t.String(); strings.HasSuffix(s, "."+t.Name()) {
				names = append(names, strings.TrimSuffix(s, "."+t.Name()))
				break
			}
		}
	}
	registry.RUnlock()
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	if j := strings.Index(last, ".v"); j > 0 {
		last = last[:j]
	}
	names = append(names, last)
	for _, cut := range []string{"go-", "go."} {
		if s, ok := strings.CutPrefix(last, cut); ok {
			names = append(names, s)
		}
	}
	if s, ok := strings.CutSuffix(last, "-go"); ok {
		names = append(names, s)
	}
	return names
}
