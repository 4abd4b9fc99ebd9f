// Package testfiletypes: observed code reflecting over its caller's value,
// as toml's Encode and Decode, go-querystring's Values and decimal's Scan
// do, given values of types the package's own tests declare: in a _test.go
// file, inside a test function, as a struct literal, and one name declared
// alike in two test functions (decimal's `type foo struct{}`).
package testfiletypes

import (
	"fmt"
	"reflect"
	"strings"
)

// Fields lists the exported fields of the struct v holds or points to,
// with their tags and values.
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
		parts = append(parts, fmt.Sprintf("%s(%s)=%v", f.Name, f.Tag.Get("q"), rv.Field(i).Interface()))
	}
	return strings.Join(parts, " ")
}
