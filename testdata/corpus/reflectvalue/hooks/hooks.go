// Package hooks is the observed set: it takes reflect.Values from its
// callers and hands them to deref, outside the set, as mapstructure's
// decode hooks and expr's builtins do.
package hooks

import (
	"errors"
	"reflect"
	"strconv"

	"example.com/reflectvalue/deref"
)

// Assign sets the field of the struct dst refers to (through pointers) to
// v, converted to the field's type, and returns the struct's new value.
func Assign(dst reflect.Value, field string, v any) (any, error) {
	d := deref.Value(dst)
	if d.Kind() != reflect.Struct {
		return nil, errors.New("not a struct: " + d.Kind().String())
	}
	f := d.FieldByName(field)
	if !f.IsValid() || !f.CanSet() {
		return nil, errors.New("cannot set " + field)
	}
	val := reflect.ValueOf(v).Convert(f.Type())
	f.Set(val)
	return d.Interface(), nil
}

// Describe says what v refers to: its kind, type and flags, and its value
// where it is a string or an integer.
func Describe(v reflect.Value) string {
	if !v.IsValid() {
		return "invalid"
	}
	s := v.Kind().String() + " " + v.Type().String()
	if v.CanAddr() {
		s += " addressable"
	}
	if !v.CanInterface() {
		s += " read-only"
	}
	switch v.Kind() {
	case reflect.String:
		s += " " + strconv.Quote(v.String())
	case reflect.Int:
		s += " " + strconv.Itoa(int(v.Int()))
	}
	return s
}

// Fields returns reflect.Values of the fields of the struct v refers to.
func Fields(v reflect.Value) []reflect.Value {
	d := deref.Value(v)
	out := make([]reflect.Value, 0, d.NumField())
	for i := 0; i < d.NumField(); i++ {
		out = append(out, d.Field(i))
	}
	return out
}
