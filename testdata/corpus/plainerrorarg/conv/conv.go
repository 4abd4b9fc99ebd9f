// Package conv turns values of any type into strings, reflecting over
// those it does not know (as spf13/cast's ToString does).
package conv

import (
	"fmt"
	"reflect"
	"strconv"
)

// ToString returns i as a string: an error's message, a Stringer's
// String, numbers in base 10, what a pointer points to.
func ToString(i any) string {
	switch s := i.(type) {
	case nil:
		return ""
	case string:
		return s
	case int:
		return strconv.Itoa(s)
	case error:
		return s.Error()
	case fmt.Stringer:
		return s.String()
	}
	if x, ok := indirect(i); ok {
		return ToString(x)
	}
	return ""
}

// indirect follows pointers, and interfaces holding pointers, down to the
// first value that is neither (as spf13/cast's indirect does).
func indirect(i any) (any, bool) {
	v := reflect.ValueOf(i)
	if v.Kind() != reflect.Pointer {
		return i, false
	}
	for v.Kind() == reflect.Pointer || (v.Kind() == reflect.Interface && v.Elem().Kind() == reflect.Pointer) {
		if v.IsNil() {
			return nil, true
		}
		v = v.Elem()
	}
	return v.Interface(), true
}

// SetString stores s into the string that ptr points to, through
// reflection (so the package writes what it reflects over, and an incall's
// parameters are recorded again after the call).
func SetString(ptr any, s string) bool {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.String {
		return false
	}
	v.Elem().SetString(s)
	return true
}
