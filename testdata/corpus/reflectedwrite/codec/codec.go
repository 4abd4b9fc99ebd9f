// Package codec is a decoder that reflects over its
// caller's value and hands pointers into it to methods of other packages'
// types, which write it: toml's Decode(s, &x) calls UnmarshalText on
// &x.D (a time.Time field) and UnmarshalTOML on &x when the test's type
// has that method.
package codec

import (
	"encoding"
	"reflect"
	"strings"
)

// Unmarshaler is a type that decodes itself.
type Unmarshaler interface {
	UnmarshalValue(s string) error
}

// Decode sets v, a pointer to a struct, from "name=value" lines: the whole
// value through its own UnmarshalValue if it has one, else each field
// named (case-insensitively) by a line through its UnmarshalText, or
// directly when it is a string.
func Decode(s string, v any) error {
	if u, ok := v.(Unmarshaler); ok {
		return u.UnmarshalValue(s)
	}
	rv := reflect.ValueOf(v).Elem()
	for _, line := range strings.Split(s, "\n") {
		name, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		f := rv.FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, name) })
		if !f.IsValid() {
			continue
		}
		if u, ok := f.Addr().Interface().(encoding.TextUnmarshaler); ok {
			if err := u.UnmarshalText([]byte(val)); err != nil {
				return err
			}
			continue
		}
		if f.Kind() == reflect.String {
			f.SetString(val)
		}
	}
	return nil
}
