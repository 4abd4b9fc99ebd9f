// Package goflagvalue: observed code reflecting over a value of the
// standard library's flag package, as pflag's AddGoFlag and isZeroValue do:
// a *flag.Flag's Value is a *flag.stringValue, an unexported type that no
// generated code can name.
package goflagvalue

import (
	"flag"
	"reflect"
)

// ZeroDefault reports whether f's default is the zero value of its Value's
// type: it makes a new value of that type by reflection and asks it.
func ZeroDefault(f *flag.Flag) bool {
	typ := reflect.TypeOf(f.Value)
	var z reflect.Value
	if typ.Kind() == reflect.Pointer {
		z = reflect.New(typ.Elem())
	} else {
		z = reflect.Zero(typ)
	}
	return f.DefValue == z.Interface().(flag.Value).String()
}

// Kind names the kind of f's value.
func Kind(f *flag.Flag) string {
	return reflect.Indirect(reflect.ValueOf(f.Value)).Kind().String()
}
