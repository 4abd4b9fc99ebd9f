package value

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// reflect.Type values (docs/design/reflection.md, "A reflect.Type from an
// outcall"). Reflection runs natively in observed code, so a reflect.Type
// that crosses the boundary (an outcall's result, a field of a struct an
// outcall returns, a field read of an external object) must reach replay as
// the very type it was: native reflection over a placeholder would walk
// nothing. A reflect.Type is therefore written by the identity of the type
// it describes, TagReflectType and the log's name of that type (TypeName,
// with func types spelled with full import paths too), and replay answers
// with the type of that name in its own binary: a registered type, a type
// the binary links (LinkedType), or an unnamed type made of those (a
// pointer, slice, array, map, channel or func type, which reflect's
// constructors return as the binary's own type when it has one). A type
// identity is a value, not an object: no ID, the same bytes for the same
// type at every sight, so a map keyed by reflect.Type encodes in a stable
// order.

// reflectTypeImpl is the dynamic type of every reflect.Type value
// (*reflect.rtype).
var reflectTypeImpl = reflect.TypeOf(reflect.TypeOf(0))

// ErrUnbuiltReflectType: a recorded reflect.Type names a type this build
// cannot make (declared in a test file the build does not link or in
// package main, a struct literal with an unexported field that the binary
// does not hold, an interface literal with methods, an unexported type the
// replay binary does not link). Replay ends at it as at a known limit,
// not a divergence.
var ErrUnbuiltReflectType = errors.New("a recorded reflect.Type names a type replay cannot make")

// reflectTypeName is the name a log gives the type a reflect.Type
// describes: TypeName, except that func types (and the composites made of
// them) name their parameters and results with full import paths, so
// that replay can make them.
func reflectTypeName(t reflect.Type) string {
	if t.Name() != "" {
		return TypeName(t)
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + reflectTypeName(t.Elem())
	case reflect.Slice:
		return "[]" + reflectTypeName(t.Elem())
	case reflect.Array:
		return fmt.Sprintf("[%d]%s", t.Len(), reflectTypeName(t.Elem()))
	case reflect.Map:
		return "map[" + reflectTypeName(t.Key()) + "]" + reflectTypeName(t.Elem())
	case reflect.Chan:
		switch t.ChanDir() {
		case reflect.RecvDir:
			return "<-chan " + reflectTypeName(t.Elem())
		case reflect.SendDir:
			return "chan<- " + reflectTypeName(t.Elem())
		}
		if e := t.Elem(); e.Kind() == reflect.Chan && e.ChanDir() == reflect.RecvDir {
			return "chan (" + reflectTypeName(e) + ")"
		}
		return "chan " + reflectTypeName(t.Elem())
	case reflect.Func:
		var sb strings.Builder
		sb.WriteString("func(")
		for i := range t.NumIn() {
			if i > 0 {
				sb.WriteString(", ")
			}
			if i == t.NumIn()-1 && t.IsVariadic() {
				sb.WriteString("..." + reflectTypeName(t.In(i).Elem()))
				continue
			}
			sb.WriteString(reflectTypeName(t.In(i)))
		}
		sb.WriteString(")")
		switch t.NumOut() {
		case 0:
		case 1:
			sb.WriteString(" " + reflectTypeName(t.Out(0)))
		default:
			sb.WriteString(" (")
			for i := range t.NumOut() {
				if i > 0 {
					sb.WriteString(", ")
				}
				sb.WriteString(reflectTypeName(t.Out(i)))
			}
			sb.WriteString(")")
		}
		return sb.String()
	}
	return TypeName(t)
}

// appendReflectType appends the reflect.Type t (a non-nil value of
// dynamic type *reflect.rtype) by the identity of the type it describes.
func (e *Encoder) appendReflectType(t reflect.Type) {
	e.Buf = append(e.Buf, TagReflectType)
	e.Buf = appendName(e.Buf, reflectTypeName(t))
}

// decodeReflectType reads a TagReflectType into v, an interface slot
// (reflect.Type, any): the type of that name in this build.
func (d *Decoder) decodeReflectType(v reflect.Value) {
	d.Off++
	name := d.name()
	if d.Err != nil {
		return
	}
	t, ok := ReflectTypeByName(name)
	if !ok {
		d.Err = fmt.Errorf("%w: %s (declared inside a function, in a _test.go file or in package main, a struct literal with an unexported field that the binary does not hold or embedding a type with methods, an interface literal with methods, or an unexported type of another package that the replay binary does not link)", ErrUnbuiltReflectType, name)
		return
	}
	d.setIface(v, reflect.ValueOf(t))
}

// ReflectTypeByName returns the type a TagReflectType names, in this
// build: registered, linked, or made of such types.
func ReflectTypeByName(name string) (reflect.Type, bool) {
	switch name {
	case "error":
		return reflect.TypeFor[error](), true
	case "interface {}":
		return reflect.TypeFor[any](), true
	case "struct {}":
		return reflect.TypeFor[struct{}](), true
	}
	if t, ok := basicTypes[name]; ok {
		return t, true
	}
	if strings.HasPrefix(name, "func(") {
		return funcTypeByName(name)
	}
	if strings.HasPrefix(name, "chan ") || strings.HasPrefix(name, "<-chan ") || strings.HasPrefix(name, "chan<- ") {
		return chanTypeByName(name)
	}
	if t, ok := LookupType(name); ok {
		return t, true
	}
	if t, ok := compositeTypeOf(name, ReflectTypeByName); ok {
		return t, true
	}
	if strings.HasPrefix(name, "*") || strings.HasPrefix(name, "[") || strings.HasPrefix(name, "map[") {
		return nil, false // a composite of a type not found
	}
	return LinkedType(name)
}

// chanTypeByName makes "chan T", "<-chan T", "chan<- T", "chan (<-chan T)".
func chanTypeByName(name string) (reflect.Type, bool) {
	dir, rest := reflect.BothDir, ""
	switch {
	case strings.HasPrefix(name, "<-chan "):
		dir, rest = reflect.RecvDir, name[len("<-chan "):]
	case strings.HasPrefix(name, "chan<- "):
		dir, rest = reflect.SendDir, name[len("chan<- "):]
	default:
		rest = name[len("chan "):]
		if strings.HasPrefix(rest, "(") && strings.HasSuffix(rest, ")") {
			rest = rest[1 : len(rest)-1]
		}
	}
	e, ok := ReflectTypeByName(rest)
	if !ok {
		return nil, false
	}
	return reflect.ChanOf(dir, e), true
}

// funcTypeByName makes the func type reflectTypeName wrote: reflect.FuncOf
// returns the binary's own type of that signature when it has one, so
// comparisons with types the replayed code takes natively hold.
func funcTypeByName(name string) (reflect.Type, bool) {
	params, rest, ok := cutParens(name[len("func"):])
	if !ok {
		return nil, false
	}
	var in, out []reflect.Type
	variadic := false
	for i, p := range params {
		if s, ok := strings.CutPrefix(p, "..."); ok {
			if i != len(params)-1 {
				return nil, false
			}
			e, ok := ReflectTypeByName(s)
			if !ok {
				return nil, false
			}
			in, variadic = append(in, reflect.SliceOf(e)), true
			continue
		}
		t, ok := ReflectTypeByName(p)
		if !ok {
			return nil, false
		}
		in = append(in, t)
	}
	rest = strings.TrimPrefix(rest, " ")
	switch {
	case rest == "":
	case strings.HasPrefix(rest, "("):
		results, tail, ok := cutParens(rest)
		if !ok || tail != "" {
			return nil, false
		}
		for _, r := range results {
			t, ok := ReflectTypeByName(r)
			if !ok {
				return nil, false
			}
			out = append(out, t)
		}
	default:
		t, ok := ReflectTypeByName(rest)
		if !ok {
			return nil, false
		}
		out = append(out, t)
	}
	return reflect.FuncOf(in, out, variadic), true
}

// cutParens splits "(a, b[c, d], func(e, f)) rest" into its top-level
// comma-separated elements and what follows the closing parenthesis.
func cutParens(s string) (elems []string, rest string, ok bool) {
	if !strings.HasPrefix(s, "(") {
		return nil, "", false
	}
	depth, start := 0, 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				if e := strings.TrimSpace(s[start:i]); e != "" {
					elems = append(elems, e)
				} else if len(elems) > 0 {
					return nil, "", false
				}
				return elems, s[i+1:], true
			}
		case ',':
			if depth == 1 {
				elems = append(elems, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return nil, "", false
}
