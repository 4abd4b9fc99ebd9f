package value

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Unnamed types made from their description.
//
// A value a test hands to observed code that reflects over it is often of
// a type without a name: a struct literal (`&struct{ A int }{}`), a func
// or chan type (`func()`, `chan int` in toml's tests of what Encode
// refuses; expr's environments of functions). Go's identity of such types
// is structural: two struct literals with the same exported fields, tags
// and field types are one type wherever they are written, and so are two
// func or chan types of one signature or element. reflect.StructOf,
// FuncOf and ChanOf make that very type from its parts (the binary's own
// when it holds one), so a type the log describes by such a name is made
// when each part is a type the build can name. Not made, because
// reflection would see another type than the capture's: a struct literal
// with an unexported field (its identity includes the package that wrote
// it, which the name does not say) unless the binary holds it
// (linkedLiteral), and one embedding a type with methods (StructOf does
// not promote them).

// madeType returns the unnamed struct, func or chan type that name
// describes, made of types this build can name, or nil.
func madeType(name string) reflect.Type {
	switch {
	case strings.HasPrefix(name, "struct {"):
		if t := linkedLiteral(name); t != nil {
			return t
		}
		t, _ := structTypeByName(name)
		return t
	case strings.HasPrefix(name, "func("):
		if t, ok := funcTypeByName(name); ok && TypeName(t) == name {
			return t
		}
	case strings.HasPrefix(name, "chan ") || strings.HasPrefix(name, "<-chan ") || strings.HasPrefix(name, "chan<- "):
		if t, ok := chanTypeByName(name); ok && TypeName(t) == name {
			return t
		}
	}
	return nil
}

// structTypeByName makes the struct type literal a log names, as reflect
// spells it ("struct { A int "toml:\"a\""; pkg.B }") or as
// structLiteralName does (field types with full import paths), with
// reflect.StructOf. It says why not where it cannot.
func structTypeByName(name string) (t reflect.Type, err error) {
	body, ok := strings.CutPrefix(name, "struct {")
	if !ok || !strings.HasSuffix(body, "}") {
		return nil, fmt.Errorf("not a struct type literal")
	}
	body = strings.TrimSpace(strings.TrimSuffix(body, "}"))
	var fields []reflect.StructField
	for _, f := range splitFields(body) {
		sf, err := structField(f)
		if err != nil {
			return nil, err
		}
		fields = append(fields, sf)
	}
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("reflect.StructOf: %v", r)
		}
	}()
	t = reflect.StructOf(fields)
	if TypeName(t) != name {
		return nil, fmt.Errorf("made %s", TypeName(t))
	}
	return t, nil
}

// structField parses one field of a struct literal's name: "Name Type",
// "Name Type "tag"", "Type" or "Type "tag"" (embedded).
func structField(f string) (reflect.StructField, error) {
	var sf reflect.StructField
	typ := f
	if i := topLevelQuote(f); i >= 0 {
		tag, err := strconv.Unquote(f[i:])
		if err != nil {
			return sf, fmt.Errorf("field %q: its tag is not a quoted string", f)
		}
		sf.Tag = reflect.StructTag(tag)
		typ = strings.TrimSpace(f[:i])
	}
	if sp := strings.IndexByte(typ, ' '); sp > 0 && isIdent(typ[:sp]) && !isTypeKeyword(typ[:sp]) {
		sf.Name, typ = typ[:sp], strings.TrimSpace(typ[sp+1:])
	} else {
		sf.Anonymous = true
	}
	ft, ok := ReflectTypeByName(typ)
	if !ok {
		ft = byReflectString(typ)
	}
	if ft == nil {
		return sf, fmt.Errorf("field type %s is not a type this build can name", typ)
	}
	sf.Type = ft
	if sf.Anonymous {
		e := ft
		if e.Kind() == reflect.Pointer {
			e = e.Elem()
		}
		sf.Name = e.Name()
		if i := strings.IndexByte(sf.Name, '['); i >= 0 {
			sf.Name = sf.Name[:i]
		}
		if ft.Kind() == reflect.Interface || ft.NumMethod() > 0 ||
			ft.Kind() != reflect.Pointer && reflect.PointerTo(ft).NumMethod() > 0 {
			return sf, fmt.Errorf("embedded field %s has methods, which reflect.StructOf does not promote", typ)
		}
	}
	if r, _ := utf8.DecodeRuneInString(sf.Name); !unicode.IsUpper(r) {
		return sf, fmt.Errorf("field %s is unexported: its package is not in the type's name", sf.Name)
	}
	return sf, nil
}

// isTypeKeyword reports whether s starts a type rather than naming a field
// ("map", "func", "chan", "struct", "interface" before a space).
func isTypeKeyword(s string) bool {
	switch s {
	case "func", "chan", "struct", "interface", "map":
		return true
	}
	return false
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}

// splitFields splits a struct literal's body at the "; " that separate its
// fields, outside brackets and quoted tags.
func splitFields(body string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '"':
			j := endOfQuote(body, i)
			if j < 0 {
				return append(out, body[start:])
			}
			i = j
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ';':
			if depth == 0 {
				out = append(out, strings.TrimSpace(body[start:i]))
				start = i + 1
			}
		}
	}
	if s := strings.TrimSpace(body[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// endOfQuote returns the index of the quote that closes the Go string
// starting at s[i], or -1.
func endOfQuote(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}

// topLevelQuote returns the index of the first quote outside brackets in
// f (a field's tag), or -1.
func topLevelQuote(f string) int {
	depth := 0
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case '"':
			if depth == 0 {
				return i
			}
			if j := endOfQuote(f, i); j >= 0 {
				i = j
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
	}
	return -1
}

// byReflectString finds the named type that reflect spells s ("toml.T",
// package name and type name, as reflect's strings of type literals name
// their parts): a registered type, else one of the binary's type table.
// Several that reflection tells apart (two packages of one name, each
// with its T) refuse the name.
func byReflectString(s string) reflect.Type {
	if strings.Count(s, ".") != 1 || strings.ContainsAny(s, "[]*(){} ") {
		return nil
	}
	var found reflect.Type
	add := func(t reflect.Type) bool {
		if found != nil && !interchangeable(found, t) {
			return false
		}
		if found == nil {
			found = t
		}
		return true
	}
	registry.RLock()
	var regs []reflect.Type
	for _, t := range registry.types {
		if t.Name() != "" && t.String() == s {
			regs = append(regs, t)
		}
	}
	registry.RUnlock()
	for _, t := range regs {
		if !add(t) {
			return nil
		}
	}
	for _, p := range typesByString("*" + s) {
		t := typeOfDescriptor(p)
		if t.Kind() != reflect.Pointer || t.Elem().Name() == "" || t.Elem().String() != s {
			continue
		}
		if !add(t.Elem()) {
			return nil
		}
	}
	return found
}

// UnmadeWhy says why the unnamed type a log names (a struct, func or chan
// type, or a pointer, slice or array of one) cannot be made in this
// build, or "" if it can.
func UnmadeWhy(name string) string {
	for {
		switch {
		case strings.HasPrefix(name, "*"):
			name = name[1:]
			continue
		case strings.HasPrefix(name, "[]"):
			name = name[2:]
			continue
		case strings.HasPrefix(name, "["):
			if i := strings.IndexByte(name, ']'); i > 0 {
				name = name[i+1:]
				continue
			}
		}
		break
	}
	if _, ok := LinkedType(name); ok {
		return ""
	}
	if strings.HasPrefix(name, "struct {") {
		if _, err := structTypeByName(name); err != nil {
			return err.Error()
		}
	}
	return "a part of it is not a type this build can name"
}

// PlainName is a log's type name without the fingerprint that tells types
// of one name apart (localtypes.go).
func PlainName(name string) string {
	base, _, _ := cutFingerprint(name)
	return base
}
