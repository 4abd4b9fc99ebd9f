// Package codec is the observed set: Fields reflects over its caller's
// value, natively in the capture and in replay.
package codec

import (
	"reflect"
	"strconv"
	"strings"
)

// Option is a type of the observed package: replay rebuilds values of it.
type Option struct {
	Name  string
	Level int
}

// Fields lists the exported string and int fields of the struct v holds or
// points to.
func Fields(v any) string {
	rv := reflect.Indirect(reflect.ValueOf(v))
	if rv.Kind() != reflect.Struct {
		return rv.Kind().String()
	}
	var parts []string
	for i := 0; i < rv.NumField(); i++ {
		f := rv.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		switch fv := rv.Field(i); fv.Kind() {
		case reflect.String:
			parts = append(parts, f.Name+"="+fv.String())
		case reflect.Int:
			parts = append(parts, f.Name+"="+strconv.FormatInt(fv.Int(), 10))
		}
	}
	return strings.Join(parts, " ")
}

// Same is generic: replay instantiates it with the type arguments the log
// names, which must be types the replay build contains.
func Same[T comparable](a, b T) bool { return a == b }
