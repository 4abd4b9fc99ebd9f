// Package codec is the observed set: an encoder and a decoder that reflect
// over their callers' values (an `any` parameter), as encoding libraries
// do. Reflection runs natively in the capture and in replay; replay
// rebuilds the values from outside with their own types and state, and
// compares what Decode wrote through its pointer at the RETURN_IN.
package codec

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"example.com/reflectout/units"
)

// Marshaler is implemented by values that encode themselves.
type Marshaler interface {
	MarshalText() ([]byte, error)
}

// Encode writes v as text: structs by their fields' codec tags, slices,
// maps with string keys, numbers, strings, booleans, pointers and
// interfaces by what they hold; a Marshaler by its own text.
func Encode(v any) (string, error) {
	b, err := encode(nil, reflect.ValueOf(v), 0)
	return string(b), err
}

func encode(b []byte, v reflect.Value, depth int) ([]byte, error) {
	if depth > 16 {
		return nil, errors.New("codec: value nested too deeply")
	}
	if !v.IsValid() {
		return append(b, "null"...), nil
	}
	if v.CanInterface() {
		if m, ok := v.Interface().(Marshaler); ok {
			text, err := m.MarshalText()
			if err != nil {
				return nil, err
			}
			return strconv.AppendQuote(b, string(text)), nil
		}
		switch x := v.Interface().(type) {
		case time.Duration:
			return strconv.AppendQuote(b, x.String()), nil
		case units.Point:
			return fmt.Appendf(b, "(%d,%d)", x.X, x.Y), nil
		}
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		return encode(b, v.Elem(), depth+1)
	case reflect.Struct:
		b = append(b, '{')
		t := v.Type()
		n := 0
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if n > 0 {
				b = append(b, ", "...)
			}
			n++
			b = append(b, fieldName(f)...)
			b = append(b, ": "...)
			var err error
			if b, err = encode(b, v.Field(i), depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case reflect.Slice, reflect.Array:
		b = append(b, '[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b = append(b, ", "...)
			}
			var err error
			if b, err = encode(b, v.Index(i), depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return nil, fmt.Errorf("codec: map key type %s", v.Type().Key())
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(x, y reflect.Value) int { return strings.Compare(x.String(), y.String()) })
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = strconv.AppendQuote(b, k.String())
			b = append(b, ": "...)
			var err error
			if b, err = encode(b, v.MapIndex(k), depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case reflect.String:
		return strconv.AppendQuote(b, v.String()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.AppendUint(b, v.Uint(), 10), nil
	case reflect.Float32, reflect.Float64:
		return strconv.AppendFloat(b, v.Float(), 'g', -1, 64), nil
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool()), nil
	}
	return nil, fmt.Errorf("codec: cannot encode a %s", v.Type())
}

// fieldName is the field's codec tag, or its name.
func fieldName(f reflect.StructField) string {
	if tag := f.Tag.Get("codec"); tag != "" {
		return tag
	}
	return f.Name
}

// Decode sets the fields of the struct v points to from lines
// "name = value" (name: a codec tag or a field name; '#' starts a comment).
func Decode(text string, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("codec: Decode needs a non-nil pointer to a struct, not %T", v)
	}
	st := rv.Elem()
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, val, ok := strings.Cut(line, "=")
		if !ok {
			return fmt.Errorf("codec: line %d: no '='", i+1)
		}
		f := field(st, strings.TrimSpace(name))
		if !f.IsValid() {
			return fmt.Errorf("codec: line %d: %s has no field %q", i+1, st.Type(), strings.TrimSpace(name))
		}
		if err := set(f, strings.TrimSpace(val)); err != nil {
			return fmt.Errorf("codec: line %d: %w", i+1, err)
		}
	}
	return nil
}

// field finds the exported field of st named name (tag or field name).
func field(st reflect.Value, name string) reflect.Value {
	t := st.Type()
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.IsExported() && fieldName(f) == name {
			return st.Field(i)
		}
	}
	return reflect.Value{}
}

// set parses s into f by f's kind.
func set(f reflect.Value, s string) error {
	switch f.Kind() {
	case reflect.String:
		f.SetString(s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, f.Type().Bits())
		if err != nil {
			return err
		}
		f.SetInt(n)
	case reflect.Bool:
		x, err := strconv.ParseBool(s)
		if err != nil {
			return err
		}
		f.SetBool(x)
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(s, f.Type().Bits())
		if err != nil {
			return err
		}
		f.SetFloat(x)
	case reflect.Slice:
		parts := strings.Split(s, ",")
		sl := reflect.MakeSlice(f.Type(), len(parts), len(parts))
		for i, p := range parts {
			if err := set(sl.Index(i), strings.TrimSpace(p)); err != nil {
				return err
			}
		}
		f.Set(sl)
	case reflect.Pointer:
		p := reflect.New(f.Type().Elem())
		if err := set(p.Elem(), s); err != nil {
			return err
		}
		f.Set(p)
	default:
		return fmt.Errorf("cannot set a %s", f.Type())
	}
	return nil
}
