// Package reflectnew: observed code that makes a value with reflect.New and
// hands it to a method of the value's own type that fills it
// (mapstructure's TextUnmarshallerHookFunc: `reflect.New(t).Interface()`,
// then UnmarshalText on it). The method is external code, an outcall that
// writes memory the observed code made and returns.
package reflectnew

import (
	"encoding"
	"reflect"
)

// Parse returns a new value of like's type parsed from s by its
// UnmarshalText, or s itself when the type has none.
func Parse(like any, s string) (any, error) {
	result := reflect.New(reflect.TypeOf(like)).Interface()
	u, ok := result.(encoding.TextUnmarshaler)
	if !ok {
		return s, nil
	}
	if err := u.UnmarshalText([]byte(s)); err != nil {
		return nil, err
	}
	return result, nil
}
