// Package codec reflects over its caller's values and hands pointers into
// them, and into values reflect.New makes, to methods of other packages'
// types that write them; it also returns its own multi-error. Logs of
// these tests written in format 9, before that format's successors
// recorded the memory those methods write and the multi-error by value,
// must replay as their own build replayed them.
package codec

import (
	"encoding"
	"reflect"
	"strings"
)

// Decode sets fields of the struct v points to from "name=value" lines,
// through their UnmarshalText, or directly when they are strings.
func Decode(s string, v any) error {
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

// Parse makes a value of like's type from text through its UnmarshalText,
// and reports whether it is the zero value.
func Parse(text string, like any) (bool, error) {
	p := reflect.New(reflect.TypeOf(like))
	u, ok := p.Interface().(encoding.TextUnmarshaler)
	if !ok {
		return false, nil
	}
	if err := u.UnmarshalText([]byte(text)); err != nil {
		return false, err
	}
	return p.Elem().IsZero(), nil
}

// Problem is one field's failure.
type Problem struct{ Field, Why string }

func (p Problem) Error() string { return p.Field + ": " + p.Why }

// Problems is every field's failure.
type Problems []error

func (ps Problems) Error() string {
	var s []string
	for _, p := range ps {
		s = append(s, p.Error())
	}
	return strings.Join(s, "; ")
}

// Required returns the names among names whose values are empty, as
// Problems.
func Required(names, values []string) error {
	var ps Problems
	for i, n := range names {
		if values[i] == "" {
			ps = append(ps, Problem{n, "required"})
		}
	}
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// Count is the number of problems err holds.
func Count(err error) int {
	switch err := err.(type) {
	case nil:
		return 0
	case Problems:
		return len(err)
	}
	return 1
}
