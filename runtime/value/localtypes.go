package value

import (
	"hash/fnv"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Types of one name that reflection tells apart.
//
// A log names a type by its package path and name, and so does the binary's
// type table: toml's tests declare `type simple struct` inside four test
// functions, with other tags each, and a log of any of them said
// "github.com/BurntSushi/toml.simple", which replay could not resolve
// (LinkedType refused the name). The name alone does not say which
// declaration made the type, and no runtime information does (a
// function-local type's descriptor holds its name only). What tells the
// types apart is what native reflection sees of them: kind, size, fields,
// tags, methods. So where the binary holds several types of a value's
// name that reflection tells apart (interchangeable), the log names the
// type with a fingerprint of that structure appended, "toml.simple·5c0e…"
// (the middle dot the Go toolchain itself uses for function-local types),
// and replay takes the type of that name whose structure has the same
// fingerprint. Types of one fingerprint are interchangeable, so either is
// faithful. Types the generated code registers (the package-level types of
// the observed packages and their imports) keep their plain name: replay
// finds them by it, and so a type the capture's binary holds once but the
// replay binary (which links the test files of every observed package)
// holds twice is still named alike in both.

// fingerprintSep separates a type's name from its fingerprint.
const fingerprintSep = "·"

// fingerprintLen is the length of a fingerprint in hex digits.
const fingerprintLen = 16

var (
	ambiguousTypes  sync.Map // reflect.Type -> bool
	registeredTypes sync.Map // reflect.Type -> true: RegisterType's (not under the registry's lock, which TypeName may be called under)
)

// ambiguous reports whether named type t shares its name with another type
// of the binary that reflection tells apart from it, and is not registered
// (registered types are found by their plain name).
func ambiguous(t reflect.Type) bool {
	if t.Name() == "" || t.PkgPath() == "" || strings.ContainsAny(t.Name(), "[") {
		return false // predeclared, unnamed, or a generic instantiation
	}
	if c, ok := ambiguousTypes.Load(t); ok {
		return c.(bool)
	}
	a := false
	if _, registered := registeredTypes.Load(t); !registered {
		for _, c := range namedCandidates(t.PkgPath(), t.Name()) {
			if c != t && !interchangeable(c, t) {
				a = true
				break
			}
		}
	}
	ambiguousTypes.Store(t, a)
	return a
}

// namedCandidates returns the types of the binary named path.name
// (namedInBinary).
func namedCandidates(path, name string) []reflect.Type {
	return namedInBinary(path, name)
}

// fingerprint is the hash of what reflection sees of t (describeType), in
// fingerprintLen hex digits.
func fingerprint(t reflect.Type) string {
	var b strings.Builder
	describeType(&b, t, map[reflect.Type]bool{})
	h := fnv.New64a()
	h.Write([]byte(b.String()))
	s := strconv.FormatUint(h.Sum64(), 16)
	return strings.Repeat("0", fingerprintLen-len(s)) + s
}

// describeType writes what reflection can see of t: its name, kind and
// size, its methods (and its pointer's), and by kind its fields (names,
// package paths, tags, offsets, embedding and their types), element, key,
// length, direction or signature. A named type that is not itself
// ambiguous is written by its name only: replay finds that one by name.
// seen cuts cycles.
func describeType(b *strings.Builder, t reflect.Type, seen map[reflect.Type]bool) {
	top := len(seen) == 0
	if t.Name() != "" {
		b.WriteString(t.PkgPath() + "." + t.Name())
		if seen[t] || !top && (t.PkgPath() == "" || !ambiguous(t)) {
			return
		}
	}
	seen[t] = true
	b.WriteString("<" + t.Kind().String() + " " + strconv.FormatUint(uint64(t.Size()), 10))
	methods := func(t reflect.Type) {
		for i := range t.NumMethod() {
			m := t.Method(i)
			b.WriteString(" m:" + m.Name + " " + m.Type.String())
		}
	}
	methods(t)
	if t.Kind() != reflect.Interface && t.Kind() != reflect.Pointer {
		b.WriteString(" ptr")
		methods(reflect.PointerTo(t))
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			b.WriteString(" f:" + f.Name + " " + f.PkgPath + " " + strconv.Quote(string(f.Tag)) + " " + strconv.FormatUint(uint64(f.Offset), 10))
			if f.Anonymous {
				b.WriteString(" embedded")
			}
			b.WriteByte(' ')
			describeType(b, f.Type, seen)
		}
	case reflect.Array:
		b.WriteString(" " + strconv.Itoa(t.Len()) + " ")
		describeType(b, t.Elem(), seen)
	case reflect.Pointer, reflect.Slice:
		b.WriteByte(' ')
		describeType(b, t.Elem(), seen)
	case reflect.Chan:
		b.WriteString(" " + t.ChanDir().String() + " ")
		describeType(b, t.Elem(), seen)
	case reflect.Map:
		b.WriteByte(' ')
		describeType(b, t.Key(), seen)
		b.WriteByte(' ')
		describeType(b, t.Elem(), seen)
	case reflect.Func:
		for i := range t.NumIn() {
			b.WriteString(" in ")
			describeType(b, t.In(i), seen)
		}
		for i := range t.NumOut() {
			b.WriteString(" out ")
			describeType(b, t.Out(i), seen)
		}
		if t.IsVariadic() {
			b.WriteString(" variadic")
		}
	}
	b.WriteString(">")
}

// cutFingerprint splits "path.name·fingerprint" into the name and the
// fingerprint; ok is false for a name without one.
func cutFingerprint(name string) (base, fp string, ok bool) {
	i := strings.LastIndex(name, fingerprintSep)
	if i <= 0 || len(name)-i-len(fingerprintSep) != fingerprintLen || strings.ContainsAny(name[:i], "[]*() ") {
		return name, "", false
	}
	fp = name[i+len(fingerprintSep):]
	if strings.Trim(fp, "0123456789abcdef") != "" {
		return name, "", false
	}
	return name[:i], fp, true
}

// linkedByFingerprint finds the named type path.name (base) of the
// binary whose structure has fingerprint fp: the registered type of that
// name, or one of the binary's type table. Several of one fingerprint are
// interchangeable; any is taken.
func linkedByFingerprint(base, fp string) reflect.Type {
	registry.RLock()
	r := registry.types[base]
	registry.RUnlock()
	if r != nil && fingerprint(r) == fp {
		return r
	}
	i := strings.LastIndexByte(base, '.')
	if i <= 0 {
		return nil
	}
	for _, c := range namedCandidates(base[:i], base[i+1:]) {
		if fingerprint(c) == fp {
			namedWithFingerprint(c)
			return c
		}
	}
	return nil
}

// namedWithFingerprint makes TypeName name t with its fingerprint, as the
// log that named it so does: the replay binary links less code than the
// capture's (a function declaring another type of t's name may be dead
// in it), so it may hold t alone, and replay's encodings must still name
// it as the capture's did. Names cached for types made of t are dropped.
func namedWithFingerprint(t reflect.Type) {
	if a, ok := ambiguousTypes.Load(t); ok && a.(bool) {
		return
	}
	forgetTypeName(t)
	ambiguousTypes.Store(t, true)
	base := t.PkgPath() + "." + t.Name()
	typeNames.Range(func(k, v any) bool {
		if strings.Contains(v.(string), base) {
			typeNames.Delete(k)
		}
		return true
	})
	for i := range recentNames {
		recentNames[i].Store(nil)
	}
}

// forgetTypeName drops what TypeName remembers of t, whose name depends
// on whether it is registered (RegisterType).
func forgetTypeName(t reflect.Type) {
	typeNames.Delete(t)
	ambiguousTypes.Delete(t)
	i := typeSlot(t, len(recentNames))
	for _, j := range []int{i, i ^ 1} {
		if r := recentNames[j].Load(); r != nil && r.t == t {
			recentNames[j].CompareAndSwap(r, nil)
		}
	}
}

// structLiteralName spells the struct type literal t as reflect does
// ("struct { A int "json:\"a\""; pkg.B }"), but with each field's type
// named as TypeName names it, when one of them is made of a type whose
// name needs a fingerprint (a field of a test's function-local type):
// reflect's spelling says only "toml.T", which replay could not resolve.
// Otherwise ok is false, and the log keeps reflect's spelling.
func structLiteralName(t reflect.Type) (name string, ok bool) {
	if !holdsAmbiguous(t, 0) {
		return "", false
	}
	if t.NumField() == 0 {
		return "struct {}", true
	}
	var b strings.Builder
	b.WriteString("struct { ")
	for i := range t.NumField() {
		f := t.Field(i)
		if i > 0 {
			b.WriteString("; ")
		}
		if !f.Anonymous {
			b.WriteString(f.Name + " ")
		}
		b.WriteString(TypeName(f.Type))
		if f.Tag != "" {
			b.WriteString(" " + strconv.Quote(string(f.Tag)))
		}
	}
	b.WriteString(" }")
	return b.String(), true
}

// holdsAmbiguous reports whether the unnamed type t is made of a named
// type that is ambiguous.
func holdsAmbiguous(t reflect.Type, depth int) bool {
	if t.Name() != "" {
		return depth > 0 && ambiguous(t)
	}
	if depth > 32 {
		return false
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsAmbiguous(t.Field(i).Type, depth+1) {
				return true
			}
		}
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		return holdsAmbiguous(t.Elem(), depth+1)
	case reflect.Map:
		return holdsAmbiguous(t.Key(), depth+1) || holdsAmbiguous(t.Elem(), depth+1)
	}
	return false
}
