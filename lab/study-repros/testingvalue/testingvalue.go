// Package testingvalue: observed code reflecting over its caller's value,
// as cast's ToBool and ToStringMap do, given a testing.T by value (cast's
// tests check that a value of a type it does not convert fails).
package testingvalue

import "reflect"

// Kind names the kind of v and whether it is a struct with fields.
func Kind(v any) string {
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Struct && t.NumField() > 0 {
		return t.Kind().String() + " with fields"
	}
	return t.Kind().String()
}
