// Package localtypes: observed code reflecting over its caller's value, as
// toml's Encode does, given values of types replay could not rebuild: two
// types of one name declared inside two test functions with other tags
// (toml's four `type simple struct`), values of unnamed func and chan types
// (toml's TestEncodeSkipInvalidType and TestEncodeError), and types of the
// external test package, which imports an internal package of the module
// (toml_test, cast_test).
package localtypes

import (
	"reflect"
	"strings"
)

// Encode writes the exported fields of the struct v holds or points to
// whose tag does not ask to omit their zero value, as name=value, and
// the kind of anything else.
func Encode(v any) string {
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
		fv := rv.Field(i)
		if strings.Contains(f.Tag.Get("enc"), "omitzero") && fv.IsZero() {
			continue
		}
		parts = append(parts, f.Name+"="+fv.Kind().String())
	}
	return strings.Join(parts, " ")
}
