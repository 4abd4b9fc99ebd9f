// Package codec decodes lists into slices it makes by reflection and hands
// the addresses of their elements to the elements' own UnmarshalText, as
// go-toml's decoder does with reflect.MakeSlice and reflect.Append; and it
// encodes a value by calling its own Marshal method twice, on a copy that
// shares memory with the caller's through a pointer field (go-toml's
// encoder calls MarshalTOML once to classify the value, once to emit it).
package codec

import (
	"encoding"
	"reflect"
	"strings"
)

// Decode sets the slice v points to from comma-separated items, into a
// slice made at its final length.
func Decode(s string, v any) error {
	rv := reflect.ValueOf(v).Elem()
	items := strings.Split(s, ",")
	sl := reflect.MakeSlice(rv.Type(), len(items), len(items))
	for i, it := range items {
		if err := sl.Index(i).Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(it)); err != nil {
			return err
		}
	}
	rv.Set(sl)
	return nil
}

// Append sets the slice v points to from comma-separated items, appending
// one element at a time.
func Append(s string, v any) error {
	rv := reflect.ValueOf(v).Elem()
	sl := reflect.MakeSlice(rv.Type(), 0, 1)
	for _, it := range strings.Split(s, ",") {
		sl = reflect.Append(sl, reflect.Zero(rv.Type().Elem()))
		if err := sl.Index(sl.Len() - 1).Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(it)); err != nil {
			return err
		}
	}
	rv.Set(sl)
	return nil
}

// Marshaler is a value that writes itself.
type Marshaler interface {
	Marshal() (string, error)
}

// Twice marshals the first field of struct v twice, by its own method,
// and returns both results.
func Twice(v any) (string, error) {
	m := reflect.ValueOf(v).Field(0).Interface().(Marshaler)
	a, err := m.Marshal()
	if err != nil {
		return "", err
	}
	b, err := m.Marshal()
	return a + b, err
}
